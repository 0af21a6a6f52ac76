// core.hooksPath directories (husky, lefthook, .githooks, or whatever the repository configures)
// hold scripts the user's next commit runs: protected like .git/hooks.
import { execFileSync } from 'node:child_process';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { CodeError } from '@a3s-lab/code-core';

import { LocalWorkspaceBackend } from '../src/index.js';

let parent = '';
let root = '';

beforeEach(async () => {
  parent = await realpath(await mkdtemp(join(tmpdir(), 'a3s-hookspath-')));
  root = join(parent, 'ws');
  execFileSync('git', ['init', '-q', root]);
});

afterEach(async () => {
  await rm(parent, { recursive: true, force: true });
});

async function expectRefused(promise: Promise<unknown>): Promise<void> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(CodeError.hasCode(error, 'SECURITY_ERROR')).toBe(true);
  expect((error as CodeError).details['reason']).toBe('protected_path');
}

describe('hook manager directories are protected', () => {
  it.each([
    '.husky/pre-commit',
    '.husky/_/pre-commit',
    '.HUSKY/pre-push',
    '.githooks/pre-commit',
    '.lefthook/pre-commit/run.sh',
    'lefthook.yml',
    '.lefthook.yml',
    'lefthook-local.yml',
    '.pre-commit-config.yaml',
    '.simple-git-hooks.json',
  ])('refuses writing %j', async (path) => {
    const backend = new LocalWorkspaceBackend(root);
    await expectRefused(backend.writeFile({ path, content: '#!/bin/sh\ntouch /tmp/pwned\n' }));
  });

  it.each([
    ['tools/hooks', 'tools/hooks/pre-commit'],
    ['tools/hooks', 'Tools/Hooks/post-checkout'],
    ['./scripts/git-hooks/', 'scripts/git-hooks/pre-push'],
    ['"ci hooks"', 'ci hooks/commit-msg'],
    ['.', 'pre-commit'],
  ])('refuses writing inside the configured core.hooksPath %j (%j)', async (hooksPath, path) => {
    execFileSync('git', ['config', 'core.hooksPath', hooksPath.replace(/^"|"$/g, '')], { cwd: root });
    const backend = new LocalWorkspaceBackend(root);
    await expectRefused(backend.writeFile({ path, content: '#!/bin/sh\n' }));
    await expectRefused(backend.deleteFile({ path }));
  });

  it('an absolute core.hooksPath inside the workspace is protected too', async () => {
    execFileSync('git', ['config', 'core.hooksPath', join(root, 'abs-hooks')], { cwd: root });
    const backend = new LocalWorkspaceBackend(root);
    await expectRefused(backend.writeFile({ path: 'abs-hooks/pre-commit', content: '#!/bin/sh\n' }));
  });

  it('leaves ordinary files writable', async () => {
    execFileSync('git', ['config', 'core.hooksPath', '.'], { cwd: root });
    const backend = new LocalWorkspaceBackend(root);
    await backend.writeFile({ path: 'src/pre-commit.ts', content: 'export {};\n' });
    await backend.writeFile({ path: 'README.md', content: '# ok\n' });
    await backend.writeFile({ path: 'docs/husky.md', content: 'about .husky\n' });
  });
});
