// SessionOptions.workspaceOverlay: a host wraps the session's own (local, sandboxed) backend;
// the tools read and write through the overlay, and the kernel (permission rules, hooks) and the
// wrapped backend's confinement, deny-read and protected-path checks stay in front of it: a
// refused path never reaches the overlay.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { mkdtemp, realpath } from 'node:fs/promises';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startScriptedModelServer, textResponse, toolCallResponse, toolResultsOf } from '@a3s-lab/code-testing';
import type { ScriptedResponse, ScriptedModelServer } from '@a3s-lab/code-testing';

import { Agent } from '../src/index.js';
import type { WorkspaceBackend, WorkspaceOverlay } from '../src/index.js';
import { aclFor } from './harness.js';

const queue: ScriptedResponse[] = [];
let base = '';
let ws = '';
let server: ScriptedModelServer;
let agent: Agent;

beforeAll(async () => {
  base = await realpath(await mkdtemp('/var/tmp/a3s-overlay-'));
  ws = join(base, 'ws');
  mkdirSync(join(ws, 'secrets'), { recursive: true });
  writeFileSync(join(ws, 'open.txt'), 'saved on disk\n');
  writeFileSync(join(ws, 'secrets', 'key.txt'), 'SECRET\n');
  server = await startScriptedModelServer({ scenario: () => queue.shift() ?? textResponse('done') });
  agent = await Agent.create(aclFor(server, 'anthropic'));
});

afterAll(async () => {
  await agent?.close();
  await server?.close();
  rmSync(base, { recursive: true, force: true });
});

/** An "editor": open buffers served for reads, writes recorded (and applied to the buffer). */
function editorOverlay(buffers: Map<string, string>, calls: string[]): WorkspaceOverlay {
  return (inner: WorkspaceBackend): WorkspaceBackend => ({
    // A class instance's methods are not spread: what the overlay leaves out is the wrapped backend's.
    ...inner,
    readFile: async (options) => {
      calls.push(`read ${options.path}`);
      const text = buffers.get(options.path);
      if (text === undefined) return inner.readFile(options);
      const content = new TextEncoder().encode(text);
      return { path: options.path, content, size: content.byteLength, version: `buffer:${text.length}` };
    },
    writeFile: async (options) => {
      calls.push(`write ${options.path}`);
      buffers.set(options.path, typeof options.content === 'string' ? options.content : new TextDecoder().decode(options.content));
      return { path: options.path, version: 'buffer' };
    },
    capabilities: { ...inner.capabilities, versionedWrites: false },
  });
}

describe('SessionOptions.workspaceOverlay', () => {
  it('reads and writes go through the overlay; refused paths never reach it', async () => {
    const buffers = new Map([['open.txt', 'unsaved buffer text\n']]);
    const calls: string[] = [];
    queue.push(
      toolCallResponse('read', { file_path: 'open.txt' }),
      toolCallResponse('edit', { file_path: 'open.txt', old_string: 'unsaved', new_string: 'edited' }),
      toolCallResponse('read', { file_path: 'secrets/key.txt' }),
      toolCallResponse('read', { file_path: '../outside.txt' }),
      toolCallResponse('write', { file_path: '.git/hooks/pre-commit', content: 'evil' }),
      toolCallResponse('write', { file_path: 'blocked.txt', content: 'x' }),
      toolCallResponse('write', { file_path: 'denied.txt', content: 'x' }),
      toolCallResponse('ls', { path: '.' }),
      textResponse('done'),
    );
    const session = await agent.sessionAsync(ws, {
      permissionPolicy: { deny: ['write(denied.txt)'], defaultDecision: 'allow' },
      sandbox: { denyRead: [join(ws, 'secrets')] },
      circuitBreakerThreshold: 100,
      workspaceOverlay: editorOverlay(buffers, calls),
    });
    session.registerHook('block', 'pre_tool_use', { tool: 'write' }, null, (event) =>
      (event.payload['args'] as { file_path?: string } | undefined)?.file_path === 'blocked.txt' ? { action: 'block', reason: 'hook says no' } : undefined,
    );
    await session.send('go');
    const results = toolResultsOf(server.requests.at(-1)!).map((result) => result.content);
    expect(results[0]).toContain('unsaved buffer text');
    expect(buffers.get('open.txt')).toBe('edited buffer text\n');
    // The disk was not written: the edit went through the overlay.
    expect(readFileSync(join(ws, 'open.txt'), 'utf8')).toBe('saved on disk\n');
    expect(results[2]).toMatch(/sandbox policy denies/);
    expect(results[3]).toMatch(/outside the workspace/);
    expect(results[4]).toMatch(/agent's own configuration/);
    expect(results[5]).toMatch(/hook says no/);
    expect(results[6]).toMatch(/denied/i);
    expect(results[7]).toContain('open.txt');
    expect(calls).toEqual(['read open.txt', 'read open.txt', 'write open.txt']);
    // The sandbox of the wrapped backend is still reported (processes run in it).
    const plain = await agent.sessionAsync(ws, { sandbox: { denyRead: [join(ws, 'secrets')] } });
    expect(session.sandboxStatus()).toEqual(plain.sandboxStatus());
    await plain.closeAsync();
    expect(JSON.stringify(session.snapshot().options)).not.toContain('workspaceOverlay');
    await session.closeAsync();
  });

  it('a non-function is a SESSION_CONFIGURATION_ERROR naming the field', () => {
    expect(() => agent.session(ws, { workspaceOverlay: {} as never })).toThrow(expect.objectContaining({ code: 'SESSION_CONFIGURATION_ERROR', details: expect.objectContaining({ field: 'workspaceOverlay' }) }));
  });
});
