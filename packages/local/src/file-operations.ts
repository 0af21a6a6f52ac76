import type { BigIntStats, Dirent } from 'node:fs';
import { lstat, readdir, unlink } from 'node:fs/promises';

import { HostFailure, toHostFailure } from '@a3s-lab/code-core';
import type { ByteRange, Page, WorkspaceEntry, WorkspaceEntryType, WorkspaceFile, WorkspaceStat } from '@a3s-lab/code-core';

import { checkExpected, currentStats } from './atomic-write.js';
import { fstatBig, readInto } from './local-io.js';
import { closeFile, openRegularFile, readWhole } from './open-regular-file.js';
import type { ConfinedPath } from './confine-path.js';
import { checkLimit } from './search/run-search.js';
import { decodeCursor, encodeCursor } from '@a3s-lab/code-core/util';
import { versionToken } from './version-token.js';

const ABSENT = new Set(['ENOENT', 'ENOTDIR']);

function errnoOf(error: unknown): unknown {
  return (error as { code?: unknown }).code;
}

/**
 * Largest file `readFile` loads whole (256 MiB); larger ones are read with a `range` or refused
 * with a `Conflict` HostFailure (`details.hostCode: 'EFBIG'`), never with a raw Node error.
 */
export const MAX_WHOLE_FILE_BYTES = 256 * 1024 * 1024;

/**
 * Reads a confined file (or, with `range`, a window of it); `null` when absent. Only a regular file is opened (see
 * {@link openRegularFile}): a FIFO, socket or device is refused without blocking, and O_NOFOLLOW
 * catches a symlink swapped in after confinement.
 */
export async function readConfinedFile(target: ConfinedPath, range?: ByteRange): Promise<WorkspaceFile | null> {
  if (!target.exists) return null;
  const opened = await openRegularFile(target.absolute, target.relative);
  if (opened === null) return null;
  const { fd, stats } = opened;
  try {
    const size = Number(stats.size);
    if (range !== undefined) {
      // A window: memory bounded by the range, whatever the file's size.
      const start = Math.max(0, Math.min(range.start, size));
      const buffer = Buffer.alloc(Math.max(0, Math.min(range.length, size - start)));
      let filled = 0;
      while (filled < buffer.length) {
        const bytesRead = await readInto(fd, buffer, filled, buffer.length - filled, start + filled);
        if (bytesRead === 0) break;
        filled += bytesRead;
      }
      const after = await fstatBig(fd);
      return { path: target.relative, content: new Uint8Array(buffer.buffer, buffer.byteOffset, filled), version: versionToken(after), size: Number(after.size) };
    }
    if (size > MAX_WHOLE_FILE_BYTES) {
      throw new HostFailure('Conflict', `file too large to load whole (${size} bytes, limit ${MAX_WHOLE_FILE_BYTES}): ${target.relative}`, {
        path: target.relative,
        details: { hostCode: 'EFBIG', size, limit: MAX_WHOLE_FILE_BYTES },
      });
    }
    // The version is the one the descriptor had when opened, before the content was read: a
    // change during the read makes a later write with this version a conflict (a version taken
    // after the read could pair new metadata with old content and let that write through).
    const content = await readWhole(fd, size);
    return { path: target.relative, content: new Uint8Array(content.buffer, content.byteOffset, content.length), version: versionToken(stats), size: content.length };
  } catch (error) {
    throw toHostFailure(error, target.relative);
  } finally {
    await closeFile(fd);
  }
}

/** Stats a confined path; `null` when absent. */
export async function statConfined(target: ConfinedPath): Promise<WorkspaceStat | null> {
  if (!target.exists) return null;
  let stats: BigIntStats;
  try {
    stats = await lstat(target.absolute, { bigint: true });
  } catch (error) {
    if (ABSENT.has(errnoOf(error) as string)) return null;
    throw toHostFailure(error, target.relative);
  }
  return { path: target.relative, type: typeOf(stats), size: Number(stats.size), modifiedMs: Number(stats.mtimeMs), version: versionToken(stats) };
}

/** Deletes a confined regular file; false when absent. */
export async function deleteConfined(target: ConfinedPath, expectedVersion: string | undefined): Promise<boolean> {
  const previous = await currentStats(target.absolute, target.relative);
  if (previous === null) {
    if (expectedVersion !== undefined) checkExpected(null, expectedVersion, target.relative);
    return false;
  }
  checkExpected(previous, expectedVersion, target.relative);
  try {
    await unlink(target.absolute);
    return true;
  } catch (error) {
    if (ABSENT.has(errnoOf(error) as string)) return false;
    throw toHostFailure(error, target.relative);
  }
}

/**
 * Lists a confined directory sorted by name (UTF-16 order), paged by an offset cursor; `null`
 * when the directory is absent. Entries are not followed: a symlink is reported as `symlink`.
 */
export async function listConfined(target: ConfinedPath, limit: number, cursor: string | undefined): Promise<Page<WorkspaceEntry> | null> {
  const size = checkLimit(limit);
  const offset = decodeCursor(cursor, { list: target.relative });
  if (!target.exists) return null;
  let entries: Dirent[];
  try {
    entries = await readdir(target.absolute, { withFileTypes: true });
  } catch (error) {
    if (errnoOf(error) === 'ENOENT') return null;
    if (errnoOf(error) === 'ENOTDIR') throw new HostFailure('Conflict', `not a directory: ${target.relative}`, { path: target.relative, details: { hostCode: 'ENOTDIR' } });
    throw toHostFailure(error, target.relative);
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const page = entries.slice(offset, offset + size);
  const items = await Promise.all(
    page.map(async (entry): Promise<WorkspaceEntry> => {
      const path = target.relative === '.' ? entry.name : `${target.relative}/${entry.name}`;
      let entrySize = 0;
      try {
        entrySize = Number((await lstat(`${target.absolute}/${entry.name}`)).size);
      } catch {
        // Removed between readdir and lstat: still listed, size unknown.
      }
      return { name: entry.name, path, type: direntType(entry), size: entrySize };
    }),
  );
  const nextCursor = offset + size < entries.length ? encodeCursor(offset + size, { list: target.relative }) : null;
  return { items, nextCursor };
}

function typeOf(stats: BigIntStats): WorkspaceEntryType {
  if (stats.isFile()) return 'file';
  if (stats.isDirectory()) return 'directory';
  if (stats.isSymbolicLink()) return 'symlink';
  return 'other';
}

function direntType(entry: Dirent): WorkspaceEntryType {
  if (entry.isFile()) return 'file';
  if (entry.isDirectory()) return 'directory';
  if (entry.isSymbolicLink()) return 'symlink';
  return 'other';
}
