import { execFileSync } from 'node:child_process';
import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { HooksPathsReader } from './hooks-paths.js';

let root = '';

beforeAll(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'a3s-hooks-paths-')));
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('HooksPathsReader', () => {
  it('reads core.hooksPath again whenever a config file changes, also when reads are reused', async () => {
    const reused = new HooksPathsReader(0n);
    const strict = new HooksPathsReader();
    expect(await reused.read(root)).toEqual([]);
    execFileSync('git', ['init', '-q'], { cwd: root });
    expect(await reused.read(root)).toEqual([]);
    execFileSync('git', ['config', 'core.hooksPath', 'tools/hooks'], { cwd: root });
    expect(await reused.read(root)).toEqual(['tools/hooks']);
    expect(await strict.read(root)).toEqual(['tools/hooks']);
    execFileSync('git', ['config', 'core.hooksPath', 'ci'], { cwd: root });
    expect(await reused.read(root)).toEqual(['ci']);
    expect(await strict.read(root)).toEqual(['ci']);
    await writeFile(join(root, '.git', 'config.worktree'), '[core]\n\thooksPath = wt-hooks\n');
    expect(await reused.read(root)).toEqual(['ci', 'wt-hooks']);
    await rm(join(root, '.git', 'config'));
    expect(await reused.read(root)).toEqual(['wt-hooks']);
  });
});
