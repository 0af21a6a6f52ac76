import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { InvocationKernel, ToolRegistry } from '@a3s-lab/code-core/kernel';
import type { AgentEvent } from '@a3s-lab/code-core';
import { afterEach, describe, expect, it } from 'vitest';
import { createBuiltinTools, selectToolsForWorkspace } from '../src/index.js';
import type { LocalFixture } from './local-fixture.js';
import { createLocalFixture, gitSetup } from './local-fixture.js';
import { run } from './tool-context.js';

const tools = Object.fromEntries(createBuiltinTools().map((tool) => [tool.name, tool]));
const tool = (name: string) => tools[name] as NonNullable<(typeof tools)[string]>;

let fixture: LocalFixture | undefined;
afterEach(async () => {
  await fixture?.cleanup();
  fixture = undefined;
});

describe('tools over LocalWorkspaceBackend', () => {
  it('offers every built-in tool on a local workspace', async () => {
    fixture = await createLocalFixture();
    expect(selectToolsForWorkspace(createBuiltinTools(), fixture.backend.capabilities)).toHaveLength(12);
  });

  it('reads, writes, edits and patches real files', async () => {
    fixture = await createLocalFixture({ 'src/a.ts': 'export const a = 1;\nexport const b = 2;\n' });
    const { backend, root } = fixture;
    const read = await run(tool('read'), backend, { files: [{ path: 'src/a.ts', offset: 1 }, { path: 'missing.ts' }] });
    expect(read.output).toContain('==> src/a.ts <==\n     2\texport const b = 2;\n');
    const written = await run(tool('write'), backend, { file_path: 'new/dir/b.txt', content: 'hello\n' });
    expect(written.metadata).toMatchObject({ created: true, bytes: 6 });
    expect(await readFile(join(root, 'new/dir/b.txt'), 'utf8')).toBe('hello\n');
    const edited = await run(tool('edit'), backend, { file_path: 'src/a.ts', old_string: 'a = 1', new_string: 'a = 10' });
    expect(edited.exitCode).toBeUndefined();
    const patched = await run(tool('patch'), backend, { file_path: 'src/a.ts', diff: '--- a/src/a.ts\n+++ b/src/a.ts\n@@ -2,1 +2,2 @@\n export const b = 2;\n+export const c = 3;\n' });
    expect(patched.exitCode).toBeUndefined();
    expect(await readFile(join(root, 'src/a.ts'), 'utf8')).toBe('export const a = 10;\nexport const b = 2;\nexport const c = 3;\n');
  });

  it('lists, globs and greps real files', async () => {
    fixture = await createLocalFixture({ 'src/a.ts': 'const needle = 1;\n', 'src/b.js': 'needle()\n', 'docs/x.md': 'nothing\n' });
    const { backend } = fixture;
    expect((await run(tool('ls'), backend, {})).output.split('\n').sort()).toEqual(['docs/', 'src/']);
    expect((await run(tool('glob'), backend, { pattern: '**/*.ts', sort: 'path' })).output).toBe('src/a.ts');
    const grep = await run(tool('grep'), backend, { pattern: 'needle', output_mode: 'count' });
    expect(grep.output.split('\n').sort()).toEqual(['src/a.ts:1', 'src/b.js:1']);
    const content = await run(tool('grep'), backend, { pattern: 'needle\\(', glob: '*.js' });
    expect(content.output).toBe('src/b.js:1:needle()');
    expect((await run(tool('grep'), backend, { pattern: '(' })).errorKind?.type).toBe('invalid_argument');
  });

  it('runs real bash with stdout, stderr, exit code and a timeout', async () => {
    fixture = await createLocalFixture({ 'f.txt': 'x\n' });
    const { backend } = fixture;
    const ok = await run(tool('bash'), backend, { command: 'cat f.txt; echo oops >&2; exit 4' });
    expect(ok.output).toBe('stdout:\nx\nstderr:\noops\nexit code: 4');
    expect(ok.exitCode).toBe(4);
    expect(ok.metadata).toMatchObject({ exit_code: 4, stdout_bytes: 2, stderr_bytes: 5, dropped_bytes: 0, timed_out: false });
    const slow = await run(tool('bash'), backend, { command: 'sleep 30', timeout: 300 });
    expect(slow.errorKind).toEqual({ type: 'timeout', op: 'bash', duration_ms: 300 });
    const big = await run(tool('bash'), backend, { command: 'head -c 1500000 /dev/zero | tr "\\0" a' });
    const meta = big.metadata as { stdout_bytes: number; dropped_bytes: number };
    expect(meta.stdout_bytes).toBe(1500000);
    expect(meta.dropped_bytes).toBeGreaterThan(0);
    expect(big.output).toContain(`[output truncated: ${meta.dropped_bytes} bytes dropped`);
  }, 60_000);

  it('runs typed git commands in a real repository', async () => {
    fixture = await createLocalFixture({ 'a.txt': 'one\n' });
    const { backend, root } = fixture;
    gitSetup(root, 'init', '-q');
    gitSetup(root, 'add', 'a.txt');
    gitSetup(root, 'commit', '-q', '-m', 'first commit');
    for (let i = 2; i <= 4; i += 1) {
      await fixture.write('a.txt', `${'line\n'.repeat(i)}`);
      gitSetup(root, 'commit', '-q', '-am', `commit ${i}`);
    }
    await fixture.write('a.txt', `changed ✓\n${'é'.repeat(400)}\n`);
    await fixture.write('new.txt', 'untracked\n');
    const status = await run(tool('git'), backend, { command: 'status' });
    expect(status.metadata).toMatchObject({ branch: 'main', dirty_count: 2, untracked: ['new.txt'] });
    expect((status.metadata as { unstaged: { path: string }[] }).unstaged.map((e) => e.path)).toEqual(['a.txt']);
    const log = await run(tool('git'), backend, { command: 'log', limit: 3 });
    const commits = (log.metadata as { commits: { subject: string; hash: string }[] }).commits;
    expect(commits.map((c) => c.subject)).toEqual(['commit 4', 'commit 3', 'commit 2']);
    expect(commits[0]?.hash).toMatch(/^[0-9a-f]{40}$/);
    const rest = await run(tool('git'), backend, { command: 'log', limit: 3, cursor: (log.metadata as { next_cursor: string }).next_cursor });
    expect((rest.metadata as { commits: { subject: string }[]; next_cursor: null }).commits.map((c) => c.subject)).toEqual(['first commit']);
    let cursor: string | undefined;
    let diff = '';
    do {
      const page = await run(tool('git'), backend, { command: 'diff', max_bytes: 256, ...(cursor === undefined ? {} : { cursor }) });
      const meta = page.metadata as { next_cursor: string | null; bytes: number };
      expect(meta.bytes).toBeLessThanOrEqual(256);
      diff += meta.next_cursor === null ? page.output : page.output.slice(0, page.output.lastIndexOf('\n... diff continues'));
      cursor = meta.next_cursor ?? undefined;
    } while (cursor !== undefined);
    expect(diff).toContain('+changed ✓');
    expect(diff).not.toContain('\uFFFD');
    const created = await run(tool('git'), backend, { command: 'branch', subcommand: 'create', name: 'feature/x' });
    expect(created.exitCode).toBeUndefined();
    const branches = await run(tool('git'), backend, { command: 'branch' });
    expect(branches.metadata).toMatchObject({ current: 'main', total: 2 });
    const stash = await run(tool('git'), backend, { command: 'stash', subcommand: 'push', message: 'wip' });
    expect(stash.exitCode).toBeUndefined();
    expect((await run(tool('git'), backend, { command: 'stash' })).output).toContain('stash@{0}');
    const checkout = await run(tool('git'), backend, { command: 'checkout', ref: 'feature/x' });
    expect(checkout.exitCode).toBeUndefined();
    expect((await run(tool('git'), backend, { command: 'status' })).metadata).toMatchObject({ branch: 'feature/x' });
    const worktrees = await run(tool('git'), backend, { command: 'worktree' });
    expect((worktrees.metadata as { worktrees: unknown[] }).worktrees).toHaveLength(1);
    const added = await run(tool('git'), backend, { command: 'worktree', subcommand: 'create', path: 'wt', branch: 'wt-branch' });
    expect(added.exitCode, added.output).toBeUndefined();
    const listed = await run(tool('git'), backend, { command: 'worktree' });
    expect((listed.metadata as { worktrees: { branch: string | null }[] }).worktrees.map((w) => w.branch)).toEqual(['feature/x', 'wt-branch']);
    const removed = await run(tool('git'), backend, { command: 'worktree', subcommand: 'remove', path: 'wt' });
    expect(removed.exitCode, removed.output).toBeUndefined();
    expect((await run(tool('git'), backend, { command: 'remote' })).output).toBe('No remotes');
  }, 60_000);

  it('batch over a real workspace: bash is serial and ordered, reads fan out, bash confined by policy', async () => {
    fixture = await createLocalFixture({ 'src/a.ts': 'const needle = 1;\n', 'src/b.ts': 'needle();\n' });
    const events: AgentEvent[] = [];
    const kernel = new InvocationKernel({
      sessionId: 'local-batch',
      registry: new ToolRegistry(createBuiltinTools()),
      workspace: fixture.backend,
      emit: (event) => events.push(event),
      permissionPolicy: { deny: ['bash(rm *)'], defaultDecision: 'allow' },
    });
    const mixed = await kernel.invoke({
      toolName: 'batch',
      origin: 'agent',
      args: {
        invocations: [
          { tool: 'bash', args: { command: 'cp src/b.ts made.txt' } },
          { tool: 'bash', args: { command: 'rm -f src/a.ts' } },
          { tool: 'read', args: { file_path: 'made.txt', format: 'raw' } },
        ],
      },
    });
    expect(mixed.metadata?.['batch']).toMatchObject({ mode: 'serial', failed: [1] });
    expect(mixed.output).toContain('[2] read: ok\nneedle();\n');
    expect(await readFile(join(fixture.root, 'src/a.ts'), 'utf8')).toBe('const needle = 1;\n');
    const reads = await kernel.invoke({
      toolName: 'batch',
      origin: 'agent',
      args: { invocations: [{ tool: 'grep', args: { pattern: 'needle', output_mode: 'count' } }, { tool: 'glob', args: { pattern: 'src/*.ts' } }, { tool: 'git', args: { command: 'status' } }] },
    });
    // git status needs a repository: that child fails alone.
    expect(reads.metadata?.['batch']).toMatchObject({ mode: 'parallel', concurrency: 3, failed: [2] });
    expect(reads.output).toContain('src/b.ts');
    expect(events.filter((e) => e.type === 'permission_denied')).toHaveLength(1);
  });
});
