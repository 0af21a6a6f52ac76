import type { BigIntStats } from 'node:fs';
import { constants } from 'node:fs';
import { lstat, open, readlink, realpath, stat } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';

import { HostFailure, toHostFailure } from '@a3s-lab/code-core';

import { pathSecurityError } from './security-error.js';

/** What a path is, for messages: `fifo`, `socket`, `character device`... */
export function fileKindOf(stats: { isFIFO(): boolean; isSocket(): boolean; isCharacterDevice(): boolean; isBlockDevice(): boolean; isDirectory(): boolean; isSymbolicLink(): boolean }): string {
  if (stats.isDirectory()) return 'directory';
  if (stats.isFIFO()) return 'fifo';
  if (stats.isSocket()) return 'socket';
  if (stats.isCharacterDevice()) return 'character device';
  if (stats.isBlockDevice()) return 'block device';
  if (stats.isSymbolicLink()) return 'symlink';
  return 'special file';
}

/** The Conflict of a path that is not a regular file (`details.fileType` says what it is). */
export function notRegularFile(relative: string, kind: string): HostFailure {
  return new HostFailure('Conflict', kind === 'directory' ? `is a directory: ${relative}` : `not a regular file (${kind}): ${relative}`, {
    path: relative,
    details: { hostCode: kind === 'directory' ? 'EISDIR' : 'EINVAL', fileType: kind },
  });
}

// O_NONBLOCK: opening a FIFO without a writer (or a device) would otherwise park a libuv
// thread-pool slot until something writes; four such opens freeze file access for the host.
// Reads of a regular file ignore the flag.
const OPEN_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK | constants.O_NOCTTY;

/**
 * Opens `absolute` for reading only if it is a regular file: the type is checked with `lstat`
 * before opening (a FIFO, socket or device is never opened), the open itself never blocks and
 * never follows a symlink, and the opened handle is checked again with `fstat` (a path swapped
 * for a FIFO in between is refused), and the opened file must really be the one at `absolute`
 * (see `verifyOpenedPath`). `absolute` must be canonical (confined). `null` when absent.
 *
 * @throws HostFailure `Conflict` (`details.fileType`) for anything but a regular file;
 *   SECURITY_ERROR when the path is (or became) a symlink.
 */
export async function openRegularFile(absolute: string, relative: string): Promise<{ handle: FileHandle; stats: BigIntStats } | null> {
  let before: BigIntStats;
  try {
    before = await lstat(absolute, { bigint: true });
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw toHostFailure(error, relative);
  }
  if (before.isSymbolicLink()) throw pathSecurityError(relative, 'outside_workspace', 'path changed into a symlink while being read');
  if (!before.isFile()) throw notRegularFile(relative, fileKindOf(before));
  let handle: FileHandle;
  try {
    handle = await open(absolute, OPEN_FLAGS);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    if (code === 'ELOOP') throw pathSecurityError(relative, 'outside_workspace', 'path changed into a symlink while being read');
    if (code === 'ENXIO') throw notRegularFile(relative, 'socket');
    throw toHostFailure(error, relative);
  }
  try {
    const stats = await handle.stat({ bigint: true });
    if (!stats.isFile()) throw notRegularFile(relative, fileKindOf(stats));
    await verifyOpenedPath(handle, stats, absolute, relative);
    return { handle, stats };
  } catch (error) {
    await handle.close().catch(() => undefined);
    throw error;
  }
}

/**
 * The opened file must be the one at `absolute` (a canonical path the caller confined): a
 * directory on the way swapped for a symlink between the check and the open would otherwise
 * redirect the read outside the workspace (O_NOFOLLOW only guards the last component). On Linux
 * the kernel's own record of the open file (`/proc/self/fd/N`) is compared; elsewhere the path is
 * resolved again and must be the same inode.
 */
async function verifyOpenedPath(handle: FileHandle, stats: BigIntStats, absolute: string, relative: string): Promise<void> {
  let opened: string | null = null;
  try {
    opened = await readlink(`/proc/self/fd/${handle.fd}`);
  } catch {
    opened = null;
  }
  if (opened !== null) {
    if (opened !== absolute) throw pathSecurityError(relative, 'outside_workspace', 'path changed (a directory became a symlink) while being read');
    return;
  }
  const again = await realpath(absolute).catch(() => null);
  const current = again === null ? null : await stat(again, { bigint: true }).catch(() => null);
  if (again !== absolute || current === null || current.ino !== stats.ino || current.dev !== stats.dev) {
    throw pathSecurityError(relative, 'outside_workspace', 'path changed (a directory became a symlink) while being read');
  }
}

/**
 * The content of a regular file (see {@link openRegularFile}), `null` when absent; at most
 * `maxBytes` bytes when given.
 */
export async function readRegularFile(absolute: string, relative: string, maxBytes?: number): Promise<Buffer | null> {
  const opened = await openRegularFile(absolute, relative);
  if (opened === null) return null;
  try {
    if (maxBytes === undefined) return await opened.handle.readFile();
    const buffer = Buffer.alloc(Math.min(maxBytes, Number(opened.stats.size)));
    const { bytesRead } = await opened.handle.read(buffer, 0, buffer.length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await opened.handle.close();
  }
}
