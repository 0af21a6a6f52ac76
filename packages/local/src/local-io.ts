import type { BigIntStats, Dirent, Stats } from 'node:fs';
import { close, closeSync, fstat, fstatSync, lstat, lstatSync, open, openSync, read, readdir, readdirSync, readlink, readlinkSync, readSync, realpath, realpathSync } from 'node:fs';

/**
 * The read-only filesystem calls of the local backend (lookups, the non-blocking open of a file to
 * read, its checks, small reads, listings), each run in place or through the thread pool by the
 * process's load:
 *
 * - while at most one backend call is in flight in the process (a lone session, the usual CLI or
 *   IDE case), in place: a few microseconds each on a local disk, where a thread-pool round trip
 *   costs ~0.1 ms of waiting and a tool call makes several (the fix-the-bug job's `read` went from
 *   1.4 to 0.6 ms);
 * - once several are (a host running many sessions), through the thread pool, so no call holds
 *   the event loop the others need (200 concurrent sessions: event-loop lag p99 about twice as
 *   high with every lookup in place).
 *
 * Writes (create, write, rename, link, fsync) always go through the thread pool: on a journaling
 * filesystem busy with fsyncs they can wait for the journal. Every function returns a promise
 * either way (an in-place failure is a rejection), so callers have one code path.
 */
let inFlight = 0;

/** Runs one backend call, counted for {@link inPlace}. */
export async function backendCall<T>(run: () => Promise<T>): Promise<T> {
  inFlight += 1;
  try {
    return await run();
  } finally {
    inFlight -= 1;
  }
}

/** Whether the calls below run in place now (at most one backend call in flight). */
export function inPlace(): boolean {
  return inFlight <= 1;
}

/** Backend calls in flight in this process (tests). */
export function backendCallsInFlight(): number {
  return inFlight;
}

// One `fs` call, in place (when the load allows it and `small`) or through the thread pool (its callback form).
function call<T>(sync: () => T, pooled: (done: (error: NodeJS.ErrnoException | null, value: T) => void) => void, small = true): Promise<T> {
  if (small && inPlace()) {
    try {
      return Promise.resolve(sync());
    } catch (error) {
      return Promise.reject(error as Error);
    }
  }
  return new Promise<T>((resolve, reject) => pooled((error, value) => (error === null ? resolve(value) : reject(error))));
}

/** `realpath(3)` of `path` (every symlink resolved). */
export function realpathOf(path: string): Promise<string> {
  return call(
    () => realpathSync.native(path),
    (done) => realpath.native(path, done),
  );
}

/** `lstat` of `path`, bigint fields. */
export function lstatBig(path: string): Promise<BigIntStats> {
  return call(
    () => lstatSync(path, { bigint: true }),
    (done) => lstat(path, { bigint: true }, done),
  );
}

/** `lstat` of `path`. */
export function lstatOf(path: string): Promise<Stats> {
  return call(
    () => lstatSync(path),
    (done) => lstat(path, done),
  );
}

/** `readlink` of `path`. */
export function readlinkOf(path: string): Promise<string> {
  return call(
    () => readlinkSync(path),
    (done) => readlink(path, done),
  );
}

/** Opens `path` for reading with `flags` (the caller passes O_NONBLOCK: an open never waits on a FIFO). */
export function openForRead(path: string, flags: number): Promise<number> {
  return call(
    () => openSync(path, flags),
    (done) => open(path, flags, done),
  );
}

/** `fstat` of an open descriptor, bigint fields. */
export function fstatBig(fd: number): Promise<BigIntStats> {
  return call(
    () => fstatSync(fd, { bigint: true }),
    (done) => fstat(fd, { bigint: true }, done),
  );
}

/** Reads up to `length` bytes at `position`; resolves with the bytes read. */
export function readInto(fd: number, buffer: Buffer, offset: number, length: number, position: number): Promise<number> {
  // Only small reads in place: a large one is a copy the event loop should not wait for.
  return call(
    () => readSync(fd, buffer, offset, length, position),
    (done) => read(fd, buffer, offset, length, position, (error, bytes) => done(error, bytes)),
    length <= IN_PLACE_READ_MAX_BYTES,
  );
}

/** Reads above this size always go through the thread pool. */
export const IN_PLACE_READ_MAX_BYTES = 256 * 1024;

/** Closes a descriptor opened for reading. */
export function closeFd(fd: number): Promise<void> {
  return call(
    () => closeSync(fd),
    (done) => close(fd, (error) => done(error ?? null, undefined)),
  );
}

/** The entries of directory `path` with their types. */
export function readdirTyped(path: string): Promise<Dirent[]> {
  return call(
    () => readdirSync(path, { withFileTypes: true }),
    (done) => readdir(path, { withFileTypes: true }, done),
  );
}

/** The entry names of directory `path`. */
export function readdirNames(path: string): Promise<string[]> {
  return call(
    () => readdirSync(path),
    (done) => readdir(path, done),
  );
}
