import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, realpath, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { CodeError } from '@a3s-lab/code-core';

import { LocalWorkspaceBackend } from '../src/index.js';
import { confinePath, isProtectedPath, PROTECTED_WRITE_PATTERNS, validateGitArgs } from '../src/internal.js';

// Layout: <parent>/ws is the workspace; <parent>/ws2 shares its name prefix; <parent>/outside
// holds the secrets. Links inside ws point out in every way the confinement must refuse.
let parent = '';
let root = '';
let outsideSnapshot = new Map<string, { content: string; mtimeMs: number }>();
const MARKER = 'TOP_SECRET_MARKER';

async function snapshot(): Promise<Map<string, { content: string; mtimeMs: number }>> {
  const result = new Map<string, { content: string; mtimeMs: number }>();
  for (const dir of [parent, join(parent, 'ws2'), join(parent, 'outside'), join(parent, 'outside', 'dir')]) {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      if (!entry.isFile()) continue;
      const full = join(dir, entry.name);
      result.set(full, { content: await readFile(full, 'utf8'), mtimeMs: (await stat(full)).mtimeMs });
    }
    result.set(`${dir}/`, { content: (await readdir(dir)).sort().join(','), mtimeMs: (await stat(dir)).mtimeMs });
  }
  return result;
}

beforeAll(async () => {
  parent = await realpath(await mkdtemp(join(tmpdir(), 'a3s-confine-')));
  root = join(parent, 'ws');
  await mkdir(join(root, 'inside-dir'), { recursive: true });
  await mkdir(join(parent, 'ws2'));
  await mkdir(join(parent, 'outside', 'dir'), { recursive: true });
  await writeFile(join(parent, 'ws2', 'secret.txt'), `${MARKER} sibling\n`);
  await writeFile(join(parent, 'outside', 'secret.txt'), `${MARKER} outside\n`);
  await writeFile(join(parent, 'outside', 'dir', 'nested.txt'), `${MARKER} nested\n`);
  await writeFile(join(root, 'inside.txt'), 'inside\n');
  await symlink(join(parent, 'outside', 'secret.txt'), join(root, 'file-link'));
  await symlink(join(parent, 'outside'), join(root, 'dir-link'));
  await symlink(join(parent, 'outside', 'created-through-link.txt'), join(root, 'dangling'));
  await symlink(join(parent, 'outside', 'dir', 'new-dir', 'x.txt'), join(root, 'dangling-deep'));
  await symlink('chain2', join(root, 'chain1'));
  await symlink('../outside/secret.txt', join(root, 'chain2'));
  await symlink('loop-b', join(root, 'loop-a'));
  await symlink('loop-a', join(root, 'loop-b'));
  await symlink('../ws2', join(root, 'sibling-link'));
  await symlink('inside.txt', join(root, 'inside-link'));
  await symlink('inside-dir', join(root, 'inside-dir-link'));
  outsideSnapshot = await snapshot();
});

afterAll(async () => {
  await rm(parent, { recursive: true, force: true });
});

const escaping = (): string[] => [
  '../outside/secret.txt',
  '../ws2/secret.txt',
  '../ws2',
  `${parent}/outside/secret.txt`,
  `${parent}/ws2/secret.txt`,
  `${parent}/ws2`,
  `${root}/../outside`,
  'inside-dir/../../outside/secret.txt',
  'file-link',
  'dir-link',
  'dir-link/secret.txt',
  'dir-link/dir',
  'dangling',
  'dangling-deep',
  'chain1',
  'chain2',
  'loop-a',
  'loop-a/x',
  'sibling-link',
  'sibling-link/secret.txt',
  'nul\0byte.txt',
];

async function securityError(promise: Promise<unknown>): Promise<CodeError> {
  const error = await promise.then(
    () => new Error('resolved'),
    (caught: unknown) => caught,
  );
  if (!CodeError.hasCode(error, 'SECURITY_ERROR')) throw new Error(`expected SECURITY_ERROR, got ${String(error)}`);
  return error;
}

describe.each(['ripgrep', 'fallback'] as const)('confinement (%s engine)', (engine) => {
  const backend = (): LocalWorkspaceBackend => new LocalWorkspaceBackend(root, { searchEngine: engine });

  it.each(escaping())('refuses %j for every method', async (path) => {
    const b = backend();
    // Thunks: each call starts only when awaited, so no rejection is left unhandled meanwhile.
    const checks: (() => Promise<unknown>)[] = [
      () => b.resolvePath({ path }),
      () => b.readFile({ path }),
      () => b.stat({ path }),
      () => b.writeFile({ path, content: 'pwned' }),
      () => b.writeFile({ path: `${path}/child.txt`, content: 'pwned' }),
      () => b.deleteFile({ path }),
      () => b.list({ path, limit: 10 }),
      () => b.glob({ pattern: '**/*', path, limit: 10, sort: 'path' }),
      () => b.search({ pattern: 'SECRET', path, outputMode: 'content', limit: 10 }),
      () => b.exec({ command: 'cat secret.txt; touch pwned.txt', cwd: path, timeoutMs: 10_000 }),
    ];
    for (const check of checks) {
      const error = await securityError(check());
      expect(error.details['path']).toBeTypeOf('string');
    }
  });

  it('reports loops as ELOOP and long paths by their limit', async () => {
    const b = backend();
    expect((await securityError(b.readFile({ path: 'loop-a' }))).details).toMatchObject({ reason: 'symlink_loop', errno: 'ELOOP' });
    expect((await securityError(b.readFile({ path: 'a'.repeat(256) }))).details).toMatchObject({ reason: 'component_too_long', limit: 255 });
    expect((await securityError(b.writeFile({ path: `${'d/'.repeat(2049)}x`, content: 'x' }))).details).toMatchObject({ reason: 'path_too_long', limit: 4096 });
    expect(await b.readFile({ path: 'a'.repeat(255) })).toBeNull();
  });

  it('never reads outside through search or glob from the root', async () => {
    const b = backend();
    for (const mode of ['content', 'files_with_matches', 'count', 'summary'] as const) {
      const result = await b.search({ pattern: MARKER, outputMode: mode, limit: 100 });
      expect(result.totalMatches).toBe(0);
    }
    const all = await b.glob({ pattern: '**', limit: 1000, sort: 'path' });
    expect(all.items).toEqual(['inside.txt']);
  });

  it('accepts links and absolute paths that stay inside', async () => {
    const b = backend();
    expect((await b.readFile({ path: 'inside-link' }))?.path).toBe('inside.txt');
    expect(await b.resolvePath({ path: `${root}/inside-dir-link/new.txt` })).toBe('inside-dir/new.txt');
    expect((await b.list({ path: 'inside-dir-link', limit: 10 }))?.items).toEqual([]);
    const result = await b.exec({ command: 'pwd -P', cwd: 'inside-dir-link', timeoutMs: 10_000 });
    expect(result.stdout.trim()).toBe(join(root, 'inside-dir'));
  });

  it('left every outside file and directory untouched', async () => {
    expect(await snapshot()).toEqual(outsideSnapshot);
  });
});

describe('confinePath', () => {
  it('compares components, not string prefixes', async () => {
    await expect(confinePath(root, `${parent}/ws2/secret.txt`)).rejects.toMatchObject({ code: 'SECURITY_ERROR', details: { reason: 'outside_workspace' } });
    await expect(confinePath(root, `${root}2`)).rejects.toMatchObject({ code: 'SECURITY_ERROR' });
    await expect(confinePath(root, 'new/dir/file.txt')).resolves.toEqual({ absolute: `${root}/new/dir/file.txt`, relative: 'new/dir/file.txt', exists: false });
    await expect(confinePath(root, '')).resolves.toMatchObject({ relative: '.', exists: true });
  });

  // An existing path resolves in one realpath, anything else through the component walk: both
  // must give the same answers for links that stay inside, and the same refusals for the others.
  it('resolves existing and missing paths through links alike', async () => {
    await expect(confinePath(root, 'inside-dir-link')).resolves.toEqual({ absolute: `${root}/inside-dir`, relative: 'inside-dir', exists: true });
    await expect(confinePath(root, 'inside-dir-link/../inside-link')).resolves.toEqual({ absolute: `${root}/inside.txt`, relative: 'inside.txt', exists: true });
    await expect(confinePath(root, 'inside-dir-link/missing/x')).resolves.toEqual({ absolute: `${root}/inside-dir/missing/x`, relative: 'inside-dir/missing/x', exists: false });
    await expect(confinePath(root, 'inside.txt/x')).resolves.toEqual({ absolute: `${root}/inside.txt/x`, relative: 'inside.txt/x', exists: false });
    await expect(confinePath(root, 'chain1')).rejects.toMatchObject({ details: { reason: 'outside_workspace', viaSymlink: true } });
    await expect(confinePath(root, 'dangling')).rejects.toMatchObject({ details: { reason: 'outside_workspace', viaSymlink: true } });
    await expect(confinePath(root, 'loop-a')).rejects.toMatchObject({ details: { reason: 'symlink_loop' } });
  });

  it('writes an existing file through a linked directory, a new one into missing directories, and reads whole files', async () => {
    const b = new LocalWorkspaceBackend(root);
    const big = 'x'.repeat(300_000);
    const first = await b.writeFile({ path: 'inside-dir-link/big.txt', content: big });
    expect(first.path).toBe('inside-dir/big.txt');
    const again = await b.writeFile({ path: 'inside-dir-link/big.txt', content: `${big}y`, expectedVersion: first.version });
    const read = await b.readFile({ path: 'inside-dir/big.txt' });
    expect(read?.version).toBe(again.version);
    expect(Buffer.from(read?.content ?? []).toString('utf8')).toBe(`${big}y`);
    await b.writeFile({ path: 'inside-dir/a/b/empty.txt', content: '' });
    expect((await b.readFile({ path: 'inside-dir/a/b/empty.txt' }))?.size).toBe(0);
    await rm(join(root, 'inside-dir', 'a'), { recursive: true });
    await rm(join(root, 'inside-dir', 'big.txt'));
  });
});

describe('protected paths', () => {
  const backend = (): LocalWorkspaceBackend => new LocalWorkspaceBackend(root);

  it.each(['.a3s/config.acl', '.a3s/hooks/pre-tool.sh', '.a3s/hooks', '.a3s/mcp.json', '.a3s/mcp-servers.json', 'agent.acl', '.mcp.json', '.git/hooks/pre-commit', '.git/config', '.A3S/Config.acl', './.a3s/../.a3s/config.acl'])(
    'refuses writing %j, even when absent',
    async (path) => {
      const b = backend();
      const error = await securityError(b.writeFile({ path, content: 'allow = ["*"]' }));
      expect(error.details['reason']).toBe('protected_path');
      await securityError(b.resolvePath({ path, forWrite: true }));
      expect(await b.readFile({ path: path.replace('./.a3s/../', '') })).toBeNull();
    },
  );

  it('refuses writes and deletes through a symlink to a protected file, allows reads', async () => {
    const b = backend();
    await mkdir(join(root, '.a3s'), { recursive: true });
    await writeFile(join(root, '.a3s', 'config.acl'), 'max_tool_rounds = 5\n');
    await symlink('.a3s/config.acl', join(root, 'cfg-link'));
    await symlink('.a3s', join(root, 'a3s-dir-link'));
    try {
      await securityError(b.writeFile({ path: 'cfg-link', content: 'x' }));
      await securityError(b.writeFile({ path: 'a3s-dir-link/hooks/evil.sh', content: 'x' }));
      await securityError(b.deleteFile({ path: '.a3s/config.acl' }));
      expect((await b.readFile({ path: 'cfg-link' }))?.path).toBe('.a3s/config.acl');
      expect(await readFile(join(root, '.a3s', 'config.acl'), 'utf8')).toBe('max_tool_rounds = 5\n');
      await expect(b.writeFile({ path: '.a3s/notes.md', content: 'fine' })).resolves.toMatchObject({ path: '.a3s/notes.md' });
    } finally {
      await rm(join(root, 'cfg-link'));
      await rm(join(root, 'a3s-dir-link'));
      await rm(join(root, '.a3s'), { recursive: true });
    }
    expect(PROTECTED_WRITE_PATTERNS).toContain('.mcp.json');
    expect(isProtectedPath('src/agent.acl')).toBe(false);
  });

  it('decides protected paths by their first component first, whatever their case', () => {
    const protectedPaths = ['agent.acl', 'AGENT.ACL', './agent.acl', '.a3s/config.acl', '.A3S/Hooks/run.sh', '.a3s/mcp-servers.json', '.mcp.json', '.MCP.JSON', '.git', '.Git/Hooks', '.git/modules/sub/config', '.git/worktrees/w/hooks/pre-commit', '.husky/pre-commit', 'Lefthook.yml', '.pre-commit-config.yaml', '.simple-git-hooks.json', '.a3s/tools/x/', '.a3s/hooks'];
    const allowed = ['src/agent.acl', 'agent.acl.bak', '.a3s/notes.md', '.a3s/mcp.txt', '.gitignore', '.github/workflows/ci.yml', '.git-blame-ignore-revs', 'docs/.git/config', 'husky/pre-commit', 'a/.mcp.json', 'lefthook.yml.orig', ''];
    for (const path of protectedPaths) expect(isProtectedPath(path), path).toBe(true);
    for (const path of allowed) expect(isProtectedPath(path), path).toBe(false);
  });
});

describe('git confinement', () => {
  it('refuses options that run programs, change the repository or write outside', () => {
    for (const args of [
      ['-c', 'core.pager=sh'],
      ['--git-dir=/tmp/x', 'status'],
      ['-C', '/tmp', 'status'],
      ['fetch', '--upload-pack=touch /tmp/pwned'],
      ['fetch', '--upl=touch /tmp/pwned'],
      ['diff', '--output=../outside/x'],
      ['diff', '--no-index', '../outside/secret.txt', 'inside.txt'],
      ['log', '-ccore.pager=sh'],
      ['rebase', '--exec', 'sh'],
      ['status', '--work-tree=/'],
      ['status\0'],
    ]) {
      expect(() => validateGitArgs(args)).toThrow(CodeError);
    }
    expect(() => validateGitArgs(['log', '-p', '-C', '--stat', '--', '--output'])).not.toThrow();
  });

  it('does not discover a repository above the workspace', async () => {
    execFileSync('git', ['init', '-q', parent]);
    try {
      const result = await new LocalWorkspaceBackend(root).git({ args: ['status', '--porcelain'] });
      expect(result.exitCode).not.toBe(0);
      expect(result.stdout).not.toContain('outside');
    } finally {
      await rm(join(parent, '.git'), { recursive: true, force: true });
    }
  });

  it('refuses a .git symlink leading out and a refused arg reaches no process', async () => {
    execFileSync('git', ['init', '-q', join(parent, 'outside', 'repo')]);
    await symlink(join(parent, 'outside', 'repo', '.git'), join(root, '.git'));
    try {
      const b = new LocalWorkspaceBackend(root);
      await securityError(b.git({ args: ['status'] }));
      await securityError(b.git({ args: ['diff', '--output=../outside/out.txt'] }));
    } finally {
      await rm(join(root, '.git'));
      await rm(join(parent, 'outside', 'repo'), { recursive: true, force: true });
    }
    await expect(stat(join(parent, 'outside', 'out.txt'))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
