import { readdir, readFile, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { CodeError } from '@a3s-lab/code-core';
import type { ToolOutput } from '@a3s-lab/code-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createBuiltinTools } from '../src/index.js';
import type { LocalFixture } from './local-fixture.js';
import { createLocalFixture, gitSetup } from './local-fixture.js';
import { run } from './tool-context.js';

const tools = Object.fromEntries(createBuiltinTools().map((tool) => [tool.name, tool]));
const tool = (name: string) => tools[name] as NonNullable<(typeof tools)[string]>;

let fixture: LocalFixture;
beforeEach(async () => {
  fixture = await createLocalFixture({ 'inside.txt': 'inside\n' });
  // Symlinks inside the workspace that lead out of it.
  await symlink(join(fixture.outside, 'secret.txt'), join(fixture.root, 'link-file'));
  await symlink(fixture.outside, join(fixture.root, 'link-dir'));
});
afterEach(async () => {
  await fixture.cleanup();
});

/** A refusal is either a thrown SECURITY_ERROR (the kernel maps it) or a permission_denied result. */
async function expectRefused(name: string, args: Record<string, unknown>): Promise<void> {
  let result: ToolOutput | undefined;
  try {
    result = await run(tool(name), fixture.backend, args);
  } catch (error) {
    expect(CodeError.hasCode(error, 'SECURITY_ERROR'), `${name} ${JSON.stringify(args)} threw ${String(error)}`).toBe(true);
    return;
  }
  const failedMembers = (result.metadata as { files?: { status: string; error?: { type: string } }[] } | undefined)?.files;
  if (failedMembers !== undefined) {
    expect(failedMembers.every((member) => member.status === 'error' && member.error?.type === 'permission_denied')).toBe(true);
  } else {
    expect(result.errorKind?.type, `${name} ${JSON.stringify(args)} -> ${result.output}`).toBe('permission_denied');
  }
  expect(result.output).not.toContain('top secret');
}

async function outsideUnchanged(): Promise<void> {
  expect((await readdir(fixture.outside)).sort()).toEqual(['secret.txt']);
  expect(await readFile(join(fixture.outside, 'secret.txt'), 'utf8')).toBe('top secret\n');
}

describe('tools never leave the workspace (LocalWorkspaceBackend confinement)', () => {
  const escapes = (): string[] => ['../outside/secret.txt', join(fixture.outside, 'secret.txt'), 'link-file', 'link-dir/secret.txt', 'sub/../link-dir/secret.txt'];

  it('read refuses ../, absolute and symlinked paths (single and files mode)', async () => {
    for (const path of escapes()) await expectRefused('read', { file_path: path });
    await expectRefused('read', { files: escapes().map((path) => ({ path })) });
    const mixed = await run(tool('read'), fixture.backend, { files: [{ path: 'inside.txt' }, { path: '../outside/secret.txt' }] });
    expect(mixed.output).toContain('inside');
    expect(mixed.output).not.toContain('top secret');
  });

  it('write, edit and patch refuse to change anything outside', async () => {
    for (const path of [...escapes(), '../outside/new.txt', 'link-dir/new.txt']) {
      await expectRefused('write', { file_path: path, content: 'pwned\n' });
      await expectRefused('edit', { file_path: path, old_string: 'top secret', new_string: 'pwned' });
      await expectRefused('patch', { file_path: path, diff: '@@ -1,1 +1,1 @@\n-top secret\n+pwned\n' });
    }
    await expectRefused('patch', { file_path: '../outside/created.txt', diff: '--- /dev/null\n+++ b/../outside/created.txt\n@@ -0,0 +1,1 @@\n+pwned\n' });
    await outsideUnchanged();
  });

  it('a patch whose headers point outside changes nothing', async () => {
    for (const header of ['../outside/secret.txt', join(fixture.outside, 'secret.txt'), 'link-file']) {
      const result = await run(tool('patch'), fixture.backend, { file_path: 'inside.txt', diff: `--- a/${header}\n+++ b/${header}\n@@ -1,1 +1,1 @@\n-inside\n+changed\n` });
      expect(result.exitCode).toBe(1);
      expect(result.errorKind?.type).toBe('invalid_argument');
    }
    expect(await readFile(join(fixture.root, 'inside.txt'), 'utf8')).toBe('inside\n');
    await outsideUnchanged();
  });

  it('ls, glob and grep refuse outside roots and do not follow symlinks out', async () => {
    for (const path of ['..', fixture.outside, 'link-dir', '../outside']) {
      await expectRefused('ls', { path });
      await expectRefused('glob', { pattern: '*', path });
      await expectRefused('grep', { pattern: 'secret', path });
    }
    const everything = await run(tool('grep'), fixture.backend, { pattern: 'top secret' });
    expect(everything.output).not.toContain('top secret');
    const globbed = await run(tool('glob'), fixture.backend, { pattern: '**/secret.txt' });
    expect(globbed.output).not.toContain('secret.txt\n');
    expect(globbed.metadata).toMatchObject({ count: 0 });
  });

  it('git refuses paths outside for diff and worktree create', async () => {
    gitSetup(fixture.root, 'init', '-q');
    await expectRefused('git', { command: 'diff', path: '../outside' });
    await expectRefused('git', { command: 'worktree', subcommand: 'create', path: '../outside/wt' });
    await outsideUnchanged();
  });
});
