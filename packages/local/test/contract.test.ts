import { describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describeWorkspaceContract } from '@a3s-lab/code-core/testing';

import { LocalWorkspaceBackend } from '../src/index.js';

// Each fixture is <tmp>/parent/ws so `../name` lands in a directory only this fixture uses.
async function makeFixture(searchEngine: 'ripgrep' | 'fallback') {
  const parent = await realpath(await mkdtemp(join(tmpdir(), 'a3s-contract-')));
  const root = join(parent, 'ws');
  await mkdir(root);
  lastParent = parent;
  const backend = new LocalWorkspaceBackend(root, { searchEngine });
  expect(await backend.searchEngineName()).toBe(searchEngine);
  return {
    backend,
    cleanup: async () => {
      await backend.close();
      await rm(parent, { recursive: true, force: true });
    },
  };
}

let lastParent = '';
const outsideExists = async (name: string): Promise<boolean> => existsSync(join(lastParent, name)) || existsSync(join(tmpdir(), name)) || existsSync(join('/', name));

describeWorkspaceContract('LocalWorkspaceBackend (ripgrep)', () => makeFixture('ripgrep'), { outsideExists, runner: { describe, it } });
describeWorkspaceContract('LocalWorkspaceBackend (fallback engine)', () => makeFixture('fallback'), { outsideExists, runner: { describe, it } });
