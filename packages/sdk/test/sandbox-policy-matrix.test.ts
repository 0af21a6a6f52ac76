// Issue 31, one policy for every tool: a path on the sandbox's deny-read list is denied to the
// in-process tools (read, write, ls, glob, grep) exactly as it is hidden from sandboxed
// processes (bash: cat, ls). Each tool is walked against each rule (the denied directory, a file
// in it, a symlink to it).
import { existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { mkdtemp, realpath } from 'node:fs/promises';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startScriptedModelServer, textResponse } from '@a3s-lab/code-testing';
import type { ScriptedModelServer } from '@a3s-lab/code-testing';

import { Agent } from '../src/index.js';
import type { Session } from '../src/index.js';
import { aclFor } from './harness.js';

const SECRET = 'MATRIX-SECRET-31';
let base = '';
let ws = '';
let server: ScriptedModelServer;
let agent: Agent;
let session: Session;

beforeAll(async () => {
  base = await realpath(await mkdtemp('/var/tmp/a3s-sandbox-matrix-'));
  ws = join(base, 'ws');
  mkdirSync(join(ws, 'secrets'), { recursive: true });
  writeFileSync(join(ws, 'secrets', 'key.txt'), `${SECRET}\n`);
  writeFileSync(join(ws, 'notes.txt'), 'public notes\n');
  symlinkSync('secrets/key.txt', join(ws, 'link.txt'));
  server = await startScriptedModelServer({ scenario: [textResponse('unused')] });
  agent = await Agent.create(aclFor(server, 'anthropic'));
  session = await agent.sessionAsync(ws, { permissionPolicy: { defaultDecision: 'allow' }, sandbox: { denyRead: [join(ws, 'secrets')] } });
});

afterAll(async () => {
  await agent?.close();
  await server?.close();
  rmSync(base, { recursive: true, force: true });
});

const output = async (tool: string, args: Record<string, unknown>): Promise<string> => {
  const result = await session.tool(tool, args);
  return JSON.stringify(result);
};

describe('the deny-read list applies to every tool', () => {
  // `lists`: the tool enumerates files, so the denied file's very name must not show either.
  it.each([
    ['read', { file_path: 'secrets/key.txt' }, false],
    ['read', { file_path: 'link.txt' }, false],
    ['ls', { path: 'secrets' }, false],
    ['ls', { path: '.' }, true],
    ['glob', { pattern: '**/*' }, true],
    ['grep', { pattern: 'MATRIX' }, true],
    ['grep', { pattern: 'MATRIX', path: 'secrets' }, false],
    ['bash', { command: 'cat secrets/key.txt link.txt; ls secrets; grep -r MATRIX . 2>&1' }, false],
  ] as const)('%s %j never shows the secret', async (tool, args, lists) => {
    const text = await output(tool, args);
    expect(text).not.toContain(SECRET);
    if (lists) expect(text).not.toContain('key.txt');
  });

  it('read of a denied file is a security refusal naming the rule', async () => {
    const result = await session.tool('read', { file_path: 'secrets/key.txt' });
    expect(result.exitCode).not.toBe(0);
    expect(JSON.stringify(result)).toMatch(/sandbox policy denies/);
  });

  it('write into a denied directory is refused, by the tool and inside bash', async () => {
    await session.tool('write', { file_path: 'secrets/new.txt', content: 'x' });
    await session.tool('bash', { command: 'echo x > secrets/new2.txt' });
    expect(existsSync(join(ws, 'secrets', 'new.txt'))).toBe(false);
    expect(existsSync(join(ws, 'secrets', 'new2.txt'))).toBe(false);
  });

  it('everything else stays reachable', async () => {
    expect(await output('read', { file_path: 'notes.txt' })).toContain('public notes');
    expect(await output('glob', { pattern: '**/*.txt' })).toContain('notes.txt');
    expect(await output('bash', { command: 'cat notes.txt' })).toContain('public notes');
  });
});
