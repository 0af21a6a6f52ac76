import { randomBytes } from 'node:crypto';
import { closeSync, constants, fstatSync, lstatSync, openSync, readFileSync } from 'node:fs';
import { lstat, mkdir, open, readdir, rename, unlink } from 'node:fs/promises';
import { resolve } from 'node:path';

import { syncDirectory } from './atomic-write.js';
import { CodeError, parseSessionSnapshotText, serializeSessionSnapshot, validateSessionId } from '@a3s-lab/code-core';
import type { SessionSnapshotV1, SessionStore, SessionStoreCapabilities, SessionStoreEntry } from '@a3s-lab/code-core';

const SUFFIX = '.json';
/** A save's temp file: `.<file>.tmp-<pid>-<random>` (older builds: `.<file>.tmp-<random>`). */
const TEMP = /^\..+\.json\.tmp-(?:(\d+)-)?[0-9a-f]{12}$/;

/** Default age past which a save's temp file left by a crash is swept: 10 minutes. */
export const DEFAULT_STALE_TEMP_MS = 10 * 60_000;

/** Options of {@link FileSessionStore}. */
export interface FileSessionStoreOptions {
  /**
   * Age (by mtime) past which a temp file of a crashed save is removed when the store is first
   * used and on every `list()`; a temp file of a writer whose process is still alive on this host
   * is kept whatever its age. Default {@link DEFAULT_STALE_TEMP_MS}.
   */
  readonly staleTempMs?: number;
}

/**
 * A {@link SessionStore} keeping one JSON document per session in a directory
 * (`<dir>/<sessionId>.json`, `:` written as `%3A`). A save writes a unique temp file in the same
 * directory, fsyncs it, renames it over the document and fsyncs the directory: a crash at any
 * point leaves the previous or the new generation, never a torn document. Session files that
 * are symlinks are refused (reading and replacing), and ids cannot name a path. The store
 * directory itself must not be a symlink: every operation refuses one with a SECURITY_ERROR
 * (`details.reason: 'symlinked_store'`), so a link planted in its place cannot redirect the
 * sessions elsewhere. Temp files of crashed saves older than `staleTempMs` (10 minutes) and not
 * held by a live writer are swept when the store is first used and on `list()`.
 *
 * ```ts
 * const store = new FileSessionStore('./.a3s/sessions');
 * const session = await agent.sessionAsync('.', { sessionStore: store, autoSave: true });
 * ```
 */
export class FileSessionStore implements SessionStore {
  readonly name: string;
  readonly capabilities: SessionStoreCapabilities = Object.freeze({ atomicSessionSnapshots: true, synchronousLoad: true, durable: true });
  /** Absolute directory of the documents. */
  readonly directory: string;
  #ready: Promise<void> | null = null;
  #swept: Promise<number> | null = null;
  readonly #staleTempMs: number;
  /** Temp files this store is writing right now (never swept). */
  readonly #writing = new Set<string>();

  constructor(directory: string, options: FileSessionStoreOptions = {}) {
    if (typeof directory !== 'string' || directory.length === 0) {
      throw new CodeError('CONFIG_ERROR', 'FileSessionStore needs a directory path', { details: { field: 'directory' } });
    }
    const stale = options.staleTempMs ?? DEFAULT_STALE_TEMP_MS;
    if (!Number.isSafeInteger(stale) || stale < 0) throw new CodeError('CONFIG_ERROR', 'FileSessionStore staleTempMs must be a non-negative integer', { details: { field: 'staleTempMs' } });
    this.directory = resolve(directory);
    this.name = `file:${this.directory}`;
    this.#staleTempMs = stale;
  }

  /**
   * Removes temp files of crashed saves: older than `staleTempMs` and not written by a live
   * process of this host (nor by this store). Returns how many were removed. Runs by itself on
   * first use and on `list()`; a file that vanished or cannot be removed is left to the next sweep.
   */
  async sweepStaleTemps(): Promise<number> {
    let names: string[];
    try {
      this.#checkDirectorySync();
      names = await readdir(this.directory);
    } catch (error) {
      if (codeOf(error) === 'ENOENT') return 0;
      throw ioError(`cannot sweep store '${this.name}'`, error, this.name, null);
    }
    const now = Date.now();
    let removed = 0;
    for (const name of names) {
      const match = TEMP.exec(name);
      if (match === null) continue;
      const path = `${this.directory}/${name}`;
      if (this.#writing.has(path)) continue;
      const pid = match[1] === undefined ? null : Number(match[1]);
      if (pid !== null && pid !== process.pid && processAlive(pid)) continue;
      try {
        const stats = await lstat(path);
        // Whole milliseconds: `Date.now()` is truncated, the file time is not (a temp written this
        // millisecond would otherwise be younger than 0 ms).
        if (!stats.isFile() || now - Math.floor(stats.mtimeMs) < this.#staleTempMs) continue;
        await unlink(path);
        removed += 1;
      } catch {
        // Gone meanwhile, or not ours to remove: the next sweep looks again.
      }
    }
    return removed;
  }

  async save(snapshot: SessionSnapshotV1): Promise<void> {
    const id = validateSessionId(snapshot.sessionId, this.name);
    const text = serializeSessionSnapshot(snapshot);
    await this.#ensureDirectory();
    const target = this.#pathOf(id);
    await this.#refuseSymlink(target, id);
    const temp = `${this.directory}/.${fileNameOf(id)}.tmp-${process.pid}-${randomBytes(6).toString('hex')}`;
    let renamed = false;
    this.#writing.add(temp);
    try {
      const handle = await open(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
      try {
        await handle.writeFile(text, 'utf8');
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(temp, target);
      renamed = true;
      await syncDirectory(this.directory);
    } catch (error) {
      throw ioError(`cannot save session '${id}' to store '${this.name}'`, error, this.name, id);
    } finally {
      if (!renamed) await unlink(temp).catch(() => undefined);
      this.#writing.delete(temp);
    }
  }

  async load(sessionId: string): Promise<SessionSnapshotV1 | null> {
    const id = validateSessionId(sessionId, this.name);
    void this.#sweepOnce();
    let text: string;
    try {
      this.#checkDirectorySync();
      const handle = await open(this.#pathOf(id), constants.O_RDONLY | constants.O_NOFOLLOW);
      try {
        if (!(await handle.stat()).isFile()) throw this.#notRegular(id);
        text = await handle.readFile('utf8');
      } finally {
        await handle.close();
      }
    } catch (error) {
      return this.#missingOrThrow(error, id);
    }
    return parseSessionSnapshotText(text, { store: this.name, sessionId: id });
  }

  loadSync(sessionId: string): SessionSnapshotV1 | null {
    const id = validateSessionId(sessionId, this.name);
    let text: string;
    try {
      this.#checkDirectorySync();
      const fd = openSync(this.#pathOf(id), constants.O_RDONLY | constants.O_NOFOLLOW);
      try {
        if (!fstatSync(fd).isFile()) throw this.#notRegular(id);
        text = readFileSync(fd, 'utf8');
      } finally {
        closeSync(fd);
      }
    } catch (error) {
      return this.#missingOrThrow(error, id);
    }
    return parseSessionSnapshotText(text, { store: this.name, sessionId: id });
  }

  async delete(sessionId: string): Promise<boolean> {
    const id = validateSessionId(sessionId, this.name);
    try {
      this.#checkDirectorySync();
      await unlink(this.#pathOf(id));
      await syncDirectory(this.directory);
      return true;
    } catch (error) {
      if (codeOf(error) === 'ENOENT') return false;
      throw ioError(`cannot delete session '${id}' from store '${this.name}'`, error, this.name, id);
    }
  }

  async list(): Promise<SessionStoreEntry[]> {
    let names: string[];
    try {
      this.#checkDirectorySync();
      await this.sweepStaleTemps();
      names = await readdir(this.directory);
    } catch (error) {
      if (codeOf(error) === 'ENOENT') return [];
      throw ioError(`cannot list store '${this.name}'`, error, this.name, null);
    }
    const entries: SessionStoreEntry[] = [];
    for (const name of names) {
      if (name.startsWith('.') || !name.endsWith(SUFFIX)) continue;
      const id = name.slice(0, -SUFFIX.length).replaceAll('%3A', ':');
      try {
        validateSessionId(id, this.name);
        const stats = await lstat(`${this.directory}/${name}`);
        if (stats.isFile()) entries.push({ sessionId: id, updatedAtMs: Math.floor(stats.mtimeMs) });
      } catch {
        // Not a session document (foreign file, vanished meanwhile): not listed.
      }
    }
    return entries.sort((a, b) => (a.sessionId < b.sessionId ? -1 : a.sessionId > b.sessionId ? 1 : 0));
  }

  #pathOf(id: string): string {
    return `${this.directory}/${fileNameOf(id)}`;
  }

  async #ensureDirectory(): Promise<void> {
    this.#ready ??= mkdir(this.directory, { recursive: true, mode: 0o700 }).then(
      () => undefined,
      (error: unknown) => {
        this.#ready = null;
        throw ioError(`cannot create the directory of store '${this.name}'`, error, this.name, null);
      },
    );
    await this.#ready;
    // Checked on every save, not once: a directory swapped for a link later is refused too.
    this.#checkDirectorySync();
    void this.#sweepOnce();
  }

  /** The first-use sweep (errors ignored: sweeping is housekeeping, never a failed operation). */
  #sweepOnce(): Promise<number> {
    this.#swept ??= this.sweepStaleTemps().catch(() => 0);
    return this.#swept;
  }

  /** Refuses a store directory that is a symlink (SECURITY_ERROR) or not a directory; absent is fine (ENOENT propagates). */
  #checkDirectorySync(): void {
    const stats = lstatSync(this.directory);
    if (stats.isSymbolicLink()) {
      throw new CodeError('SECURITY_ERROR', `store directory '${this.directory}' is a symlink; refusing to follow it`, { details: { store: this.name, reason: 'symlinked_store' } });
    }
    if (!stats.isDirectory()) throw new CodeError('IO_ERROR', `store directory '${this.directory}' is not a directory`, { details: { store: this.name } });
  }

  async #refuseSymlink(path: string, id: string): Promise<void> {
    try {
      const stats = await lstat(path);
      if (stats.isSymbolicLink()) throw symlinkError(this.name, id);
      if (!stats.isFile()) throw this.#notRegular(id);
    } catch (error) {
      if (codeOf(error) !== 'ENOENT') throw error;
    }
  }

  #missingOrThrow(error: unknown, id: string): null {
    const code = codeOf(error);
    if (code === 'ENOENT') return null;
    if (code === 'ELOOP') throw symlinkError(this.name, id);
    if (CodeError.isInstance(error)) throw error;
    throw ioError(`cannot load session '${id}' from store '${this.name}'`, error, this.name, id);
  }

  #notRegular(id: string): CodeError {
    return new CodeError('IO_ERROR', `session '${id}' in store '${this.name}' is not a regular file`, { details: { store: this.name, sessionId: id } });
  }
}

function fileNameOf(id: string): string {
  return `${id.replaceAll(':', '%3A')}${SUFFIX}`;
}

/** True when a process with this id runs on this host (EPERM: it exists, owned by another user). */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return codeOf(error) === 'EPERM';
  }
}

function codeOf(error: unknown): unknown {
  return typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
}

function symlinkError(store: string, id: string): CodeError {
  return new CodeError('SECURITY_ERROR', `session '${id}' in store '${store}' is a symlink; refusing to follow it`, { details: { store, sessionId: id } });
}

function ioError(message: string, error: unknown, store: string, sessionId: string | null): CodeError {
  if (CodeError.isInstance(error)) return error;
  const code = codeOf(error);
  return new CodeError('IO_ERROR', `${message}: ${error instanceof Error ? error.message : String(error)}`, {
    details: { store, sessionId, ...(typeof code === 'string' ? { hostCode: code } : {}) },
    cause: error,
  });
}
