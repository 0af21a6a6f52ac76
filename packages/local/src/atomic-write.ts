import { randomBytes } from 'node:crypto';
import type { BigIntStats } from 'node:fs';
import { link, mkdir, open, rename, unlink, utimes } from 'node:fs/promises';
import { posix } from 'node:path';

import { CodeError, HostFailure, toHostFailure } from '@a3s-lab/code-core';

import { throwIfAborted } from '@a3s-lab/code-core/util';
import { confinePath } from './confine-path.js';
import { lstatBig, realpathOf } from './local-io.js';
import type { ConfinedPath } from './confine-path.js';
import { pathSecurityError } from './security-error.js';
import { versionToken } from './version-token.js';

/** Options of {@link atomicWrite}. */
export interface AtomicWriteOptions {
  readonly rootReal: string;
  /** Target after confinement. */
  readonly target: ConfinedPath;
  readonly content: Uint8Array;
  /** See `WriteFileOptions.expectedVersion`; omitted = unconditional. */
  readonly expectedVersion?: string | null;
  readonly abortSignal?: AbortSignal;
}

/**
 * Writes a file so a crash leaves the old or the new content, never a mix: unique temp file in
 * the verified target directory, fsync, (re-verify the directory), rename, fsync the directory.
 * Missing parent directories are created inside the workspace first.
 *
 * @throws HostFailure `Conflict` when `expectedVersion` does not match (or the file exists for `null`).
 */
export async function atomicWrite(options: AtomicWriteOptions): Promise<{ version: string }> {
  const { rootReal, target, content } = options;
  const relative = target.relative;
  if (relative === '.') throw new HostFailure('Conflict', 'cannot write the workspace root', { path: relative, details: { hostCode: 'EISDIR' } });
  const directory = posix.dirname(target.absolute);
  const base = posix.basename(target.absolute);

  await ensureDirectory(rootReal, directory, relative, target.exists);
  throwIfAborted(options.abortSignal);
  const previous = await currentStats(target.absolute, relative);
  checkExpected(previous, options.expectedVersion, relative);

  const temp = `${directory}/.${base.slice(0, 180)}.a3s-tmp-${randomBytes(6).toString('hex')}`;
  // What changes the filesystem (the create, the writes, the fsyncs, the rename) goes through the
  // thread pool: on a journaling filesystem busy with other writers' fsyncs, a create or rename can
  // wait for the journal. The lookups around it follow the process's load (see `local-io.ts`).
  let handle;
  try {
    handle = await open(temp, 'wx', previous === null ? 0o666 : Number(previous.mode & 0o7777n));
  } catch (error) {
    throw toHostFailure(error, relative);
  }
  let renamed = false;
  try {
    await handle.writeFile(content);
    await handle.sync();
    let written = await handle.stat({ bigint: true });
    if (previous !== null && versionToken(written) === versionToken(previous)) {
      // Same inode number reused, same size and an mtime inside one coarse clock tick: nudge the
      // mtime so the new version differs from the one it replaces.
      const bumped = new Date(Number(previous.mtimeNs / 1_000_000n) + 1);
      await utimes(temp, bumped, bumped);
      written = await handle.stat({ bigint: true });
    }
    await handle.close();
    handle = undefined;

    // The directory was checked before the temp file was written; check again right before the
    // rename so a directory swapped for a symlink in between is caught.
    await reverifyDirectory(rootReal, directory, relative);
    throwIfAborted(options.abortSignal);
    checkExpected(await currentStats(target.absolute, relative), options.expectedVersion, relative);
    if (options.expectedVersion === null) {
      // link() fails when the name exists, making create-only atomic (rename would overwrite).
      try {
        await link(temp, target.absolute);
      } catch (error) {
        if ((error as { code?: unknown }).code === 'EEXIST') throw conflict(relative, null, 'file already exists');
        throw error;
      }
      await unlink(temp);
    } else {
      await rename(temp, target.absolute);
    }
    renamed = true;
    await syncDirectory(directory);
    return { version: versionToken(written) };
  } catch (error) {
    if (CodeError.isInstance(error) || (error as { name?: unknown }).name === 'AbortError') throw error;
    throw toHostFailure(error, relative);
  } finally {
    if (handle !== undefined) await handle.close().catch(() => undefined);
    if (!renamed) await unlink(temp).catch(() => undefined);
  }
}

/** Stats of an existing regular file, `null` when absent; a directory or special file is a Conflict. */
export async function currentStats(absolute: string, relative: string): Promise<BigIntStats | null> {
  let stats: BigIntStats;
  try {
    stats = await lstatBig(absolute);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw toHostFailure(error, relative);
  }
  if (stats.isSymbolicLink()) throw pathSecurityError(relative, 'outside_workspace', 'path changed into a symlink while being written');
  if (!stats.isFile()) throw new HostFailure('Conflict', `not a regular file: ${relative}`, { path: relative, details: { hostCode: stats.isDirectory() ? 'EISDIR' : 'EINVAL' } });
  return stats;
}

/** Throws a Conflict HostFailure unless `previous` satisfies `expected` (see WriteFileOptions). */
export function checkExpected(previous: BigIntStats | null, expected: string | null | undefined, relative: string): void {
  if (expected === undefined) return;
  const actual = previous === null ? null : versionToken(previous);
  if (expected === null ? actual !== null : actual !== expected) {
    throw conflict(relative, expected, expected === null ? 'file already exists' : 'file changed since it was read', actual);
  }
}

function conflict(relative: string, expected: string | null, message: string, actual?: string | null): HostFailure {
  return new HostFailure('Conflict', `${message}: ${relative}`, {
    path: relative,
    details: { expected, ...(actual === undefined ? {} : { actual }) },
  });
}

async function ensureDirectory(rootReal: string, directory: string, relative: string, targetExists: boolean): Promise<void> {
  // The target existed when it was confined, so its directory did: it only needs checking again
  // (still the same real directory, no symlink on the way); `mkdir` only when that fails.
  if (targetExists && (await realpathOf(directory).catch(() => null)) === directory) return;
  try {
    await mkdir(directory, { recursive: true });
  } catch (error) {
    throw toHostFailure(error, relative);
  }
  await reverifyDirectory(rootReal, directory, relative);
}

async function reverifyDirectory(rootReal: string, directory: string, relative: string): Promise<void> {
  const again = await confinePath(rootReal, directory);
  if (again.absolute !== directory || !again.exists) {
    throw pathSecurityError(relative, 'outside_workspace', 'target directory changed while being written');
  }
}

/** fsyncs a directory so a rename in it is durable (a no-op where the filesystem refuses it). */
export async function syncDirectory(directory: string): Promise<void> {
  const handle = await open(directory, 'r');
  try {
    await handle.sync();
  } catch {
    // Some filesystems refuse fsync on a directory; the rename itself is still atomic there.
  } finally {
    await handle.close();
  }
}
