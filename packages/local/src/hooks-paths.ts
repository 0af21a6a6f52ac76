import type { BigIntStats } from 'node:fs';
import { lstat } from 'node:fs/promises';
import { posix } from 'node:path';

import { readRegularFile } from './open-regular-file.js';
import { hooksPathsOf } from './protected-paths.js';

const CONFIG_FILES = ['.git/config', '.git/config.worktree'] as const;
// A file changed within this long of its last read may change again inside the same timestamp
// tick (kernel file times are coarse, ~4 ms): such a read is not reused ("racy git" rule).
const RACY_NS = 2_000_000_000n;

/**
 * The repository's `core.hooksPath` directories (from `.git/config` and `.git/config.worktree`)
 * that lie inside the workspace, workspace-relative: hooks there run on the user's next commit.
 *
 * Asked before every write, so the parsed answer is kept while both files keep their identity
 * (inode, size, mtime, ctime, mode by `lstat`): a write to either changes one of them, and a file
 * changed within the last 2 s is read again every time. A missing or unreadable file has none.
 */
export class HooksPathsReader {
  private cached: { readonly key: string; readonly paths: readonly string[] } | undefined;

  /** @param racyNs how recently changed a file may be and still have its read reused (tests set 0). */
  constructor(private readonly racyNs: bigint = RACY_NS) {}

  async read(rootReal: string): Promise<readonly string[]> {
    const stats = await Promise.all(CONFIG_FILES.map((file) => lstat(`${rootReal}/${file}`, { bigint: true }).catch(() => null)));
    if (stats[0] === null && stats[1] === null) return [];
    const home = process.env['HOME'] ?? '/';
    const key = `${rootReal}\n${home}\n${stats.map(identity).join('|')}`;
    if (this.cached?.key === key) return this.cached.paths;
    const paths: string[] = [];
    for (const file of CONFIG_FILES) {
      const text = await readRegularFile(`${rootReal}/${file}`, file).catch(() => null);
      if (text === null) continue;
      for (const value of hooksPathsOf(text.toString('utf8'))) {
        const absolute = posix.resolve(rootReal, value.startsWith('~/') ? `${home}/${value.slice(2)}` : value);
        const relative = posix.relative(rootReal, absolute);
        if (!relative.startsWith('..') && !posix.isAbsolute(relative)) paths.push(relative === '' ? '.' : relative);
      }
    }
    const now = BigInt(Date.now()) * 1_000_000n;
    const settled = stats.every((entry) => entry === null || (now - entry.mtimeNs >= this.racyNs && now - entry.ctimeNs >= this.racyNs));
    this.cached = settled ? { key, paths } : undefined;
    return paths;
  }
}

function identity(stats: BigIntStats | null): string {
  return stats === null ? '-' : `${stats.ino}:${stats.size}:${stats.mtimeNs}:${stats.ctimeNs}:${stats.mode}`;
}
