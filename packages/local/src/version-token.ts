import type { BigIntStats } from 'node:fs';

/**
 * Version token of a local file: inode, size and nanosecond mtime, so a rewrite (new inode through
 * rename), a same-inode change of size or content (mtime) are all visible to conditional writes.
 */
export function versionToken(stats: Pick<BigIntStats, 'ino' | 'size' | 'mtimeNs'>): string {
  return `${stats.ino.toString(36)}-${stats.size.toString(36)}-${stats.mtimeNs.toString(36)}`;
}
