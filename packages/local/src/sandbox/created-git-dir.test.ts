import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { neutraliseCreatedGitDir, unsafeGitConfigKey } from './created-git-dir.js';

describe('unsafeGitConfigKey', () => {
  it.each([
    ['[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n\tlogallrefupdates = true\n', null],
    ['[core]\n\tbare = false\n[remote "origin"]\n\turl = https://x/y.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n[branch "main"]\n\tremote = origin\n\tmerge = refs/heads/main\n[user]\n\temail = a@b\n', null],
    ['[extensions]\n\tobjectformat = sha256\n# comment\n; another\n', null],
    ['[core]\n\thooksPath = .evil\n', 'core.hookspath'],
    ['[core] fsmonitor = ./x.sh\n', 'core.fsmonitor'],
    ['[CORE]\n\tsshCommand = evil\n', 'core.sshcommand'],
    ['[alias]\n\tst = !sh -c evil\n', 'alias.st'],
    ['[include]\n\tpath = ../evil.cfg\n', 'include.path'],
    ['[filter "lfs"]\n\tclean = evil %f\n', 'filter.*.clean'],
    ['[remote "o"]\n\tuploadpack = evil\n', 'remote.*.uploadpack'],
    ['[core]\n\tbare = \\\nfalse\n', 'core (a continued line)'],
    ['bare = false\n', 'bare = false (an unreadable line)'],
  ])('%j -> %j', (text, expected) => {
    expect(unsafeGitConfigKey(text)).toBe(expected);
  });
});

describe('neutraliseCreatedGitDir', () => {
  let dir = '';
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps what git init made, removes a hook and an unsafe config', async () => {
    dir = mkdtempSync(join(tmpdir(), 'a3s-created-git-'));
    execFileSync('git', ['init', '-q'], { cwd: dir });
    expect(await neutraliseCreatedGitDir(dir)).toEqual([]);
    writeFileSync(join(dir, '.git', 'hooks', 'pre-commit'), '#!/bin/sh\n');
    execFileSync('git', ['config', 'core.hooksPath', '.evil'], { cwd: dir });
    mkdirSync(join(dir, '.git', 'modules', 'sub', 'hooks'), { recursive: true });
    writeFileSync(join(dir, '.git', 'modules', 'sub', 'hooks', 'post-checkout'), '#!/bin/sh\n');
    expect((await neutraliseCreatedGitDir(dir)).sort()).toEqual(['.git/config', '.git/hooks/pre-commit', '.git/modules/sub/hooks/post-checkout']);
    expect(readdirSync(join(dir, '.git', 'hooks')).every((name) => name.endsWith('.sample'))).toBe(true);
    expect(existsSync(join(dir, '.git', 'HEAD'))).toBe(true);
  });

  it('removes a .git that is a file (gitdir: elsewhere)', async () => {
    dir = mkdtempSync(join(tmpdir(), 'a3s-created-git-'));
    writeFileSync(join(dir, '.git'), 'gitdir: evil\n');
    expect(await neutraliseCreatedGitDir(dir)).toEqual(['.git']);
    expect(existsSync(join(dir, '.git'))).toBe(false);
  });
});
