import type { ExecResult, GitOptions, WorkspaceBackend } from '@a3s-lab/code-core';
import { MemoryWorkspaceBackend } from '@a3s-lab/code-core/testing';
import { describe, expect, it } from 'vitest';
import { run } from '../test/tool-context.js';
import { pageByBytes, parseGitBranches, parseGitLog, parseGitRemotes, parseGitStatus, parseGitWorktrees } from './git-parse.js';
import { createGitTool } from './git-tool.js';

const git = createGitTool();

function withGit(stdout: string, calls: GitOptions[] = [], extra: Partial<ExecResult> = {}): WorkspaceBackend {
  const inner = new MemoryWorkspaceBackend();
  return {
    kind: 'fake',
    root: inner.root,
    capabilities: { ...inner.capabilities, git: true },
    resolvePath: (options) => inner.resolvePath(options),
    readFile: (options) => inner.readFile(options),
    stat: (options) => inner.stat(options),
    git: async (options) => {
      calls.push(options);
      return { stdout, stderr: '', exitCode: 0, signal: null, timedOut: false, cancelled: false, durationMs: 1, stdoutBytes: stdout.length, stderrBytes: 0, droppedBytes: 0, ...extra };
    },
  };
}

describe('git parsing', () => {
  it('parses porcelain v2 status records', () => {
    const stdout = [
      '# branch.oid 1234abcd',
      '# branch.head main',
      '# branch.upstream origin/main',
      '# branch.ab +2 -1',
      '1 M. N... 100644 100644 100644 aaa bbb staged file.ts',
      '1 .M N... 100644 100644 100644 aaa bbb src/unstaged.ts',
      '1 MM N... 100644 100644 100644 aaa bbb both.ts',
      '2 R. N... 100644 100644 100644 aaa bbb R100 new name.ts',
      'old name.ts',
      '? untracked.txt',
      '',
    ].join('\0');
    const status = parseGitStatus(stdout);
    expect(status).toMatchObject({ branch: 'main', commit: '1234abcd', upstream: 'origin/main', ahead: 2, behind: 1, dirty_count: 5, untracked: ['untracked.txt'] });
    expect(status.staged.map((e) => e.path)).toEqual(['staged file.ts', 'both.ts', 'new name.ts']);
    expect(status.staged[2]?.from).toBe('old name.ts');
    expect(status.unstaged.map((e) => e.path)).toEqual(['src/unstaged.ts', 'both.ts']);
  });

  it('parses log, branches, worktrees and remotes', () => {
    expect(parseGitLog('\x1eabc\0Ann <a@x>\x002024-01-01T00:00:00Z\0first: subject\n\x1edef\0Bob <b@x>\x002024-01-02T00:00:00Z\0second\n')).toEqual([
      { hash: 'abc', author: 'Ann <a@x>', date: '2024-01-01T00:00:00Z', subject: 'first: subject' },
      { hash: 'def', author: 'Bob <b@x>', date: '2024-01-02T00:00:00Z', subject: 'second' },
    ]);
    expect(parseGitBranches('*\0main\0abc123\0origin/main\n \0feature\0def456\0\n')).toEqual([
      { name: 'main', current: true, commit: 'abc123', upstream: 'origin/main' },
      { name: 'feature', current: false, commit: 'def456', upstream: null },
    ]);
    expect(parseGitWorktrees('worktree /repo\nHEAD abc\nbranch refs/heads/main\n\nworktree /repo/wt\nHEAD def\ndetached\n\n')).toEqual([
      { path: '/repo', head: 'abc', branch: 'main', detached: false, bare: false },
      { path: '/repo/wt', head: 'def', branch: null, detached: true, bare: false },
    ]);
    expect(parseGitRemotes('origin\thttps://x/y.git (fetch)\norigin\thttps://x/y.git (push)\n')).toEqual([{ name: 'origin', fetch: 'https://x/y.git', push: 'https://x/y.git' }]);
  });

  it('pages text by bytes without splitting a code point, losslessly', () => {
    const text = `${'ab€'.repeat(300)}\n${'é'.repeat(500)}\n😀😀😀 end\n`;
    let offset: number | null = 0;
    let rebuilt = '';
    let pages = 0;
    while (offset !== null) {
      const page = pageByBytes(text, offset, 256);
      expect(page.bytes).toBeLessThanOrEqual(256);
      expect(page.text).not.toContain('\uFFFD');
      rebuilt += page.text;
      offset = page.nextOffset;
      pages += 1;
    }
    expect(rebuilt).toBe(text);
    expect(pages).toBeGreaterThan(5);
  });
});

describe('git tool', () => {
  it('runs status through workspace.git with an argv and returns typed metadata', async () => {
    const calls: GitOptions[] = [];
    const result = await run(git, withGit('# branch.oid abc\0# branch.head dev\0? new.txt\0', calls), { command: 'status' });
    expect(calls[0]?.args).toEqual(['status', '--porcelain=v2', '--branch', '-z']);
    expect(result.metadata).toMatchObject({ branch: 'dev', dirty_count: 1, untracked: ['new.txt'], upstream: null, ahead: 0, behind: 0 });
    expect(result.output).toBe('On branch dev\nUntracked:\n  new.txt');
  });

  it('paginates log with a skip cursor', async () => {
    const commits = Array.from({ length: 3 }, (_, i) => `\x1eh${i}\0A <a@x>\0d${i}\0s${i}\n`).join('');
    const calls: GitOptions[] = [];
    const result = await run(git, withGit(commits, calls), { command: 'log', limit: 2, cursor: '4', ref: 'main', path: 'src' });
    expect(calls[0]?.args).toEqual(['log', '--no-color', '--format=%x1e%H%x00%an <%ae>%x00%aI%x00%s', '--skip=4', '-n', '3', 'main', '--', 'src']);
    expect(result.metadata).toMatchObject({ next_cursor: '6' });
    expect((result.metadata as { commits: unknown[] }).commits).toHaveLength(2);
  });

  it('refuses option injection, bad subcommands and paths outside the workspace', async () => {
    const calls: GitOptions[] = [];
    const ws = withGit('', calls);
    expect((await run(git, ws, { command: 'checkout', ref: '--orphan=x' })).errorKind?.type).toBe('invalid_argument');
    expect((await run(git, ws, { command: 'branch', subcommand: 'create', name: '-D' })).errorKind?.type).toBe('invalid_argument');
    expect((await run(git, ws, { command: 'status', subcommand: 'create' })).errorKind?.type).toBe('invalid_argument');
    expect((await run(git, ws, { command: 'diff', path: '../../etc' })).errorKind?.type).toBe('permission_denied');
    expect(calls).toHaveLength(0);
  });

  it('declares read-only capabilities only for reading commands', () => {
    expect(git.capabilities?.({ command: 'status' })).toMatchObject({ readOnly: true, idempotent: true });
    expect(git.capabilities?.({ command: 'branch' })).toMatchObject({ readOnly: true, supportsPagination: true });
    expect(git.capabilities?.({ command: 'worktree', subcommand: 'create', path: 'wt' })).toMatchObject({ readOnly: false });
    expect(git.capabilities?.({ command: 'checkout', ref: 'main' })).toMatchObject({ readOnly: false });
    expect(git.permissionTarget?.({ command: 'checkout', ref: 'main' })).toEqual({ kind: 'command', command: 'git checkout main' });
  });

  it('passes git failures through with the exit code', async () => {
    const result = await run(git, withGit('', [], { exitCode: 128, stderr: 'fatal: not a git repository' }), { command: 'status' });
    expect(result.exitCode).toBe(128);
    expect(result.output).toContain('fatal: not a git repository');
  });
});
