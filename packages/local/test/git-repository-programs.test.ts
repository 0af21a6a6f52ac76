// The git tool is "read-only", yet git runs programs the repository configures: core.fsmonitor
// on status, textconv and filter drivers through .gitattributes, hooks on checkout, external
// diff, upload-pack of a remote. None may run unless the host opts in.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { CodeError } from '@a3s-lab/code-core';

import { LocalWorkspaceBackend } from '../src/index.js';

let parent = '';
let root = '';
let marker = '';

const git = (...args: string[]): string => execFileSync('git', args, { cwd: root, encoding: 'utf8', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: parent } });
const program = (): string => `touch '${marker}'; cat >/dev/null 2>&1; exit 0`;

beforeEach(async () => {
  parent = await realpath(await mkdtemp(join(tmpdir(), 'a3s-git-programs-')));
  root = join(parent, 'ws');
  marker = join(parent, 'ran');
  execFileSync('git', ['init', '-q', '-b', 'main', root]);
  git('config', 'user.email', 'a@example.com');
  git('config', 'user.name', 'a');
  await writeFile(join(root, 'a.txt'), 'one\n');
  git('add', '-A');
  git('commit', '-qm', 'init');
});

afterEach(async () => {
  await rm(parent, { recursive: true, force: true });
});

interface Payload {
  readonly name: string;
  readonly plant: () => Promise<void>;
  readonly args: readonly string[];
}

const payloads: Payload[] = [
  {
    name: 'core.fsmonitor on status',
    plant: async () => void git('config', 'core.fsmonitor', program()),
    args: ['status', '--porcelain'],
  },
  {
    name: '.gitattributes textconv driver on diff',
    plant: async () => {
      await writeFile(join(root, '.gitattributes'), '*.txt diff=evil\n');
      git('config', 'diff.evil.textconv', `sh -c "touch '${marker}'; cat \\"\\$0\\""`);
      await writeFile(join(root, 'a.txt'), 'two\n');
    },
    args: ['diff'],
  },
  {
    name: '.gitattributes textconv driver on log -p',
    plant: async () => {
      await writeFile(join(root, '.gitattributes'), '*.txt diff=evil\n');
      git('config', 'diff.evil.textconv', `sh -c "touch '${marker}'; cat \\"\\$0\\""`);
      await writeFile(join(root, 'a.txt'), 'two\n');
      git('commit', '-qam', 'two');
    },
    args: ['log', '-p', '-1'],
  },
  {
    name: 'clean filter on status of a modified file',
    plant: async () => {
      await writeFile(join(root, '.gitattributes'), '*.txt filter=evil\n');
      git('config', 'filter.evil.clean', `sh -c "touch '${marker}'; cat"`);
      await writeFile(join(root, 'a.txt'), 'changed\n');
    },
    args: ['diff', '--stat'],
  },
  {
    name: 'post-checkout hook in .git/hooks',
    plant: async () => {
      await writeFile(join(root, '.git', 'hooks', 'post-checkout'), `#!/bin/sh\n${program()}\n`);
      await chmod(join(root, '.git', 'hooks', 'post-checkout'), 0o755);
    },
    args: ['checkout', '-b', 'feature'],
  },
  {
    name: 'post-checkout hook under core.hooksPath',
    plant: async () => {
      await mkdir(join(root, '.githooks'));
      await writeFile(join(root, '.githooks', 'post-checkout'), `#!/bin/sh\n${program()}\n`);
      await chmod(join(root, '.githooks', 'post-checkout'), 0o755);
      git('config', 'core.hooksPath', '.githooks');
    },
    args: ['checkout', '-b', 'feature'],
  },
  {
    name: 'core.pager',
    plant: async () => void git('config', 'core.pager', program()),
    args: ['log', '-1'],
  },
];

const refusedPayloads: Payload[] = [
  {
    name: 'diff.external',
    plant: async () => {
      git('config', 'diff.external', program());
      await writeFile(join(root, 'a.txt'), 'two\n');
    },
    args: ['diff'],
  },
  {
    name: 'a diff driver command',
    plant: async () => {
      await writeFile(join(root, '.gitattributes'), '*.txt diff=evil\n');
      git('config', 'diff.evil.command', program());
      await writeFile(join(root, 'a.txt'), 'two\n');
    },
    args: ['diff'],
  },
  {
    name: 'a remote upload-pack',
    plant: async () => {
      git('remote', 'add', 'origin', root);
      git('config', 'remote.origin.uploadpack', `sh -c "touch '${marker}'"; git-upload-pack`);
    },
    args: ['remote', 'show', 'origin'],
  },
  {
    name: 'an included config file holding fsmonitor',
    plant: async () => {
      await writeFile(join(root, 'evil.gitconfig'), `[core]\n\tfsmonitor = "${program()}"\n`);
      git('config', 'include.path', '../evil.gitconfig');
    },
    args: ['status'],
  },
];

describe('git runs no repository-provided program', () => {
  it.each(payloads)('$name does not run', async ({ plant, args }) => {
    await plant();
    const backend = new LocalWorkspaceBackend(root);
    await backend.git({ args }).catch(() => undefined);
    await backend.close();
    expect(existsSync(marker)).toBe(false);
  });

  it.each(refusedPayloads)('$name is refused with a SECURITY_ERROR and does not run', async ({ plant, args }) => {
    await plant();
    const backend = new LocalWorkspaceBackend(root);
    const error = await backend.git({ args }).then(
      () => null,
      (caught: unknown) => caught,
    );
    await backend.close();
    expect(CodeError.hasCode(error, 'SECURITY_ERROR')).toBe(true);
    expect((error as CodeError).details['reason']).toBe('git_repository_executable');
    expect(existsSync(marker)).toBe(false);
  });

  it('still gives ordinary output under the hardening', async () => {
    await writeFile(join(root, '.gitattributes'), '*.txt diff=evil filter=evil\n');
    git('config', 'diff.evil.textconv', `sh -c "touch '${marker}'; cat \\"\\$0\\""`);
    await writeFile(join(root, 'a.txt'), 'two\n');
    const backend = new LocalWorkspaceBackend(root);
    const diff = await backend.git({ args: ['diff', '--', 'a.txt'] });
    await backend.close();
    expect(diff.exitCode).toBe(0);
    expect(diff.stdout).toContain('+two');
    expect(existsSync(marker)).toBe(false);
  });

  it('runs them when the host trusts the repository config', async () => {
    git('config', 'core.fsmonitor', program());
    await writeFile(join(root, 'a.txt'), 'two\n');
    const backend = new LocalWorkspaceBackend(root, { trustRepositoryGitConfig: true });
    await backend.git({ args: ['status', '--porcelain'] });
    await backend.close();
    expect(existsSync(marker)).toBe(true);
  });
});
