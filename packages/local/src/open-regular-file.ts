import type { BigIntStats } from 'node:fs';
import { constants } from 'node:fs';
import { stat } from 'node:fs/promises';

import { HostFailure, toHostFailure } from '@a3s-lab/code-core';

import { closeFd, fstatBig, lstatBig, openForRead, readInto, readlinkOf, realpathOf } from './local-io.js';
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

/** An open regular file: its descriptor (the caller closes it with {@link closeFile}) and its `fstat` at open. */
export interface OpenedFile {
  readonly fd: number;
  readonly stats: BigIntStats;
}

/**
 * Opens `absolute` for reading only if it is a regular file: the type is checked with `lstat`
 * before opening (a FIFO, socket or device is never opened), the open itself never blocks and
 * never follows a symlink, and the opened descriptor is checked again with `fstat` (a path swapped
 * for a FIFO in between is refused), and the opened file must really be the one at `absolute`
 * (see `verifyOpenedPath`). `absolute` must be canonical (confined). `null` when absent. The
 * calls run in place or through the thread pool by the process's load (see `local-io.ts`).
 *
 * @throws HostFailure `Conflict` (`details.fileType`) for anything but a regular file;
 *   SECURITY_ERROR when the path is (or became) a symlink.
 */
export async function openRegularFile(absolute: string, relative: string): Promise<OpenedFile | null> {
  let before: BigIntStats;
  try {
    before = await lstatBig(absolute);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw toHostFailure(error, relative);
  }
  if (before.isSymbolicLink()) throw pathSecurityError(relative, 'outside_workspace', 'path changed into a symlink while being read');
  if (!before.isFile()) throw notRegularFile(relative, fileKindOf(before));
  let fd: number;
  try {
    fd = await openForRead(absolute, OPEN_FLAGS);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    if (code === 'ELOOP') throw pathSecurityError(relative, 'outside_workspace', 'path changed into a symlink while being read');
    if (code === 'ENXIO') throw notRegularFile(relative, 'socket');
    throw toHostFailure(error, relative);
  }
  try {
    const stats = await fstatBig(fd);
    if (!stats.isFile()) throw notRegularFile(relative, fileKindOf(stats));
    await verifyOpenedPath(fd, stats, absolute, relative);
    return { fd, stats };
  } catch (error) {
    await closeFile(fd);
    throw error;
  }
}

/** Closes a descriptor of {@link openRegularFile} (a failure to close a read-only file is not the caller's). */
export async function closeFile(fd: number): Promise<void> {
  await closeFd(fd).catch(() => undefined);
}

/**
 * Reads `size` bytes from the start (fewer when the file shrank); a size of 0 (a file some
 * filesystems report empty until read) is read to its end. Not from the shared pool: the buffer
 * holds this file only.
 */
export async function readWhole(fd: number, size: number): Promise<Buffer> {
  if (size === 0) return readToEnd(fd);
  const buffer = Buffer.allocUnsafeSlow(size);
  let filled = 0;
  while (filled < size) {
    const bytesRead = await readInto(fd, buffer, filled, Math.min(size - filled, MAX_READ_CHUNK), filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  if (filled === size) return buffer;
  const exact = Buffer.allocUnsafeSlow(filled);
  buffer.copy(exact, 0, 0, filled);
  return exact;
}

// One read asks for at most this much (a 256 MiB file is not one request to the kernel).
const MAX_READ_CHUNK = 8 * 1024 * 1024;

async function readToEnd(fd: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let position = 0;
  for (;;) {
    const chunk = Buffer.allocUnsafeSlow(64 * 1024);
    const bytesRead = await readInto(fd, chunk, 0, chunk.length, position);
    if (bytesRead === 0) break;
    chunks.push(chunk.subarray(0, bytesRead));
    position += bytesRead;
  }
  return Buffer.concat(chunks);
}

/**
 * The opened file must be the one at `absolute` (a canonical path the caller confined): a
 * directory on the way swapped for a symlink between the check and the open would otherwise
 * redirect the read outside the workspace (O_NOFOLLOW only guards the last component). On Linux
 * the kernel's own record of the open file (`/proc/self/fd/N`) is compared; elsewhere the path is
 * resolved again and must be the same inode.
 */
async function verifyOpenedPath(fd: number, stats: BigIntStats, absolute: string, relative: string): Promise<void> {
  let opened: string | null = null;
  try {
    opened = await readlinkOf(`/proc/self/fd/${fd}`);
  } catch {
    opened = null;
  }
  if (opened !== null) {
    if (opened !== absolute) throw pathSecurityError(relative, 'outside_workspace', 'path changed (a directory became a symlink) while being read');
    return;
  }
  const again = await realpathOf(absolute).catch(() => null);
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
    if (maxBytes === undefined) return await readWhole(opened.fd, Number(opened.stats.size));
    const buffer = Buffer.alloc(Math.min(maxBytes, Number(opened.stats.size)));
    const bytesRead = await readInto(opened.fd, buffer, 0, buffer.length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await closeFile(opened.fd);
  }
}
