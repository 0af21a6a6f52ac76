import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

import { LocalWorkspaceBackend } from '../src/index.js';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});
function workspace(): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'a3s-prepare-')));
  writeFileSync(join(root, 'a.txt'), 'needle\n');
  roots.push(root);
  return root;
}

describe('LocalWorkspaceBackend.prepare', () => {
  it('picks the search engine ahead of the first search, which then finds what it did without it', async () => {
    const backend = new LocalWorkspaceBackend(workspace(), { searchEngine: 'auto', ripgrepPath: '/nonexistent/rg' });
    await backend.prepare();
    expect(await backend.searchEngineName()).toBe('fallback');
    const result = await backend.search({ pattern: 'needle', outputMode: 'content', limit: 10 });
    expect(result.totalMatches).toBe(1);
    expect(result.lines?.map((line) => line.path)).toEqual(['a.txt']);
    await backend.close();
  });

  it('a failure is the first search\'s to report: prepare rejects and changes nothing', async () => {
    const backend = new LocalWorkspaceBackend(workspace(), { searchEngine: 'ripgrep', ripgrepPath: '/nonexistent/rg' });
    await expect(backend.prepare()).rejects.toMatchObject({ reason: 'Unavailable' });
    await expect(backend.search({ pattern: 'needle', outputMode: 'content', limit: 10 })).rejects.toMatchObject({ reason: 'Unavailable' });
    await backend.close();
  });
});
