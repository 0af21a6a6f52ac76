import { execFileSync } from 'node:child_process';
import { mkdtemp, realpath, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { CodeError } from '@a3s-lab/code-core';

import { LocalWorkspaceBackend } from '../src/index.js';
import { isProtectedPath } from '../src/internal.js';

// Git reads configuration (core.fsmonitor, core.hooksPath, filters...) that runs programs. Files
// that REDIRECT git to another config or hooks directory are as dangerous as the config itself:
// a `.git` file (`gitdir: evil`), `.git/commondir`, a submodule's or worktree's own config.
let parent = '';
let root = '';

beforeEach(async () => {
  parent = await realpath(await mkdtemp(join(tmpdir(), 'a3s-git-redirect-')));
  root = join(parent, 'ws');
  execFileSync('git', ['init', '-q', root]);
});

afterEach(async () => {
  await rm(parent, { recursive: true, force: true });
});

async function refused(promise: Promise<unknown>): Promise<void> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(CodeError.hasCode(error, 'SECURITY_ERROR')).toBe(true);
  expect((error as CodeError).details['reason']).toBe('protected_path');
}

function evilConfig(marker: string): string {
  return `[core]\n\trepositoryformatversion = 0\n\tfsmonitor = "touch ${marker}; false"\n`;
}

async function plantRepository(backend: LocalWorkspaceBackend, dir: string, marker: string): Promise<void> {
  await backend.writeFile({ path: `${dir}/HEAD`, content: 'ref: refs/heads/main\n' });
  await backend.writeFile({ path: `${dir}/objects/.keep`, content: '' });
  await backend.writeFile({ path: `${dir}/refs/.keep`, content: '' });
  await backend.writeFile({ path: `${dir}/config`, content: evilConfig(marker) });
}

describe('git redirection files are protected', () => {
  it.each([
    '.git',
    '.git/commondir',
    '.GIT/commondir',
    './.git//commondir',
    '.git/config.worktree',
    '.git/worktrees/wt/config.worktree',
    '.git/worktrees/wt/commondir',
    '.git/modules/lib/config',
    '.git/modules/lib/hooks/post-checkout',
    '.git/modules/a/modules/b/hooks/pre-commit',
  ])('refuses writing %j', async (path) => {
    const backend = new LocalWorkspaceBackend(root);
    await refused(backend.writeFile({ path, content: 'gitdir: evil\n' }));
    await refused(backend.resolvePath({ path, forWrite: true }));
  });

  it('leaves ordinary files alone', () => {
    for (const path of ['src/config', 'git/config', '.github/workflows/ci.yml', '.gitignore', '.git-blame-ignore-revs', 'sub/.gitmodules']) {
      expect(isProtectedPath(path)).toBe(false);
    }
  });

  it.each([
    ['a .git file', '.git', 'gitdir: evil\n', true],
    ['.git/commondir', '.git/commondir', '../evil\n', false],
  ] as const)('%s written by the agent cannot point git at a config that runs code', async (_label, path, content, removeGitDirectory) => {
    if (removeGitDirectory) await rm(join(root, '.git'), { recursive: true });
    const backend = new LocalWorkspaceBackend(root);
    const marker = join(parent, 'pwned');
    await plantRepository(backend, 'evil', marker);
    await refused(backend.writeFile({ path, content }));
    await backend.git({ args: ['status', '--porcelain=v2'] });
    await expect(stat(marker)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('a workspace root laid out as a bare repository is not used implicitly', async () => {
    await rm(join(root, '.git'), { recursive: true });
    execFileSync('git', ['init', '-q', '--bare', root]);
    const result = await new LocalWorkspaceBackend(root).git({ args: ['rev-parse', '--is-bare-repository'] });
    expect(result.exitCode).not.toBe(0);
    expect(result.stdout).not.toContain('true');
  });
});
