import { realpath } from 'node:fs/promises';
import { posix } from 'node:path';

import { lstatOf, readlinkOf, realpathOf } from './local-io.js';
import { pathSecurityError } from './security-error.js';

/** Longest accepted path, in UTF-8 bytes (Linux PATH_MAX). */
export const MAX_PATH_BYTES = 4096;
/** Longest accepted single path component, in UTF-8 bytes (Linux NAME_MAX). */
export const MAX_COMPONENT_BYTES = 255;
/** Symlinks followed while resolving one path before it counts as a loop (Linux MAXSYMLINKS). */
export const MAX_SYMLINK_HOPS = 40;

/** A path that passed confinement. */
export interface ConfinedPath {
  /** Absolute real path (every symlink resolved; missing tail components kept literally). */
  readonly absolute: string;
  /** Canonical workspace-relative form with POSIX separators; `.` for the root itself. */
  readonly relative: string;
  /** False when some tail component does not exist yet. */
  readonly exists: boolean;
}

/**
 * THE confinement function: every path of every backend method (files, listings, search roots,
 * exec cwd, git) goes through it.
 *
 * - refuses NUL bytes, paths over {@link MAX_PATH_BYTES} and components over {@link MAX_COMPONENT_BYTES};
 * - interprets relative paths against the root and accepts absolute paths only when they end inside it;
 * - resolves symlinks one component at a time (like the kernel), so a dangling symlink, a chain or a
 *   directory link is followed to where it really leads; more than {@link MAX_SYMLINK_HOPS} hops is a loop;
 * - for a path that does not exist yet, the deepest existing ancestor is resolved and the remaining
 *   components are appended literally;
 * - compares path COMPONENTS of the result with the real root, never string prefixes.
 *
 * @param rootReal the workspace root, already passed through `realpath`.
 * @throws CodeError `SECURITY_ERROR` with `details.path` and `details.reason` when the path leads out.
 */
export async function confinePath(rootReal: string, input: string): Promise<ConfinedPath> {
  if (typeof input !== 'string') throw pathSecurityError(String(input), 'not_a_path', 'path must be a string');
  if (input.includes('\0')) throw pathSecurityError(input, 'nul_byte', 'path contains a NUL byte');
  if (Buffer.byteLength(input, 'utf8') > MAX_PATH_BYTES) {
    throw pathSecurityError(input.slice(0, 256), 'path_too_long', `path is longer than ${MAX_PATH_BYTES} bytes`, { limit: MAX_PATH_BYTES });
  }
  const lexical = posix.resolve(rootReal, input === '' ? '.' : input);
  for (const component of lexical.split('/')) {
    if (Buffer.byteLength(component, 'utf8') > MAX_COMPONENT_BYTES) {
      throw pathSecurityError(input.slice(0, 256), 'component_too_long', `a path component is longer than ${MAX_COMPONENT_BYTES} bytes`, { limit: MAX_COMPONENT_BYTES });
    }
  }
  const resolved = (await resolveExisting(lexical)) ?? (await resolveComponents(rootReal, lexical, input));
  const relative = relativeInside(rootReal, resolved.absolute);
  if (relative === null) {
    throw pathSecurityError(input, 'outside_workspace', 'path resolves outside the workspace', symlinkDetail(lexical, resolved.absolute));
  }
  return { absolute: resolved.absolute, relative, exists: resolved.exists };
}

/**
 * Resolves the workspace root itself with `realpath` (the root must exist).
 */
export async function realRoot(root: string): Promise<string> {
  return realpath(posix.resolve(root));
}

/**
 * Workspace-relative form of `absolute` when it lies inside `rootReal` (component comparison),
 * else `null`. `.` for the root.
 */
export function relativeInside(rootReal: string, absolute: string): string | null {
  const rootParts = components(rootReal);
  const parts = components(absolute);
  if (parts.length < rootParts.length) return null;
  for (let index = 0; index < rootParts.length; index += 1) {
    if (parts[index] !== rootParts[index]) return null;
  }
  const rest = parts.slice(rootParts.length);
  return rest.length === 0 ? '.' : rest.join('/');
}

function components(path: string): string[] {
  return path.split('/').filter((part) => part !== '' && part !== '.');
}

function symlinkDetail(lexical: string, absolute: string): Record<string, unknown> {
  return lexical === absolute ? {} : { viaSymlink: true };
}

interface Resolution {
  readonly absolute: string;
  readonly exists: boolean;
}

// An existing path resolves in one `realpath(3)` (instead of an `lstat` per component): for a
// path that exists, every symlink on the way is followed the way the walk below follows it, so
// both give the same real path. Whatever fails (a missing tail, a dangling link, a loop, a file
// used as a directory) goes through the walk, which decides what it means. In place or through the
// thread pool by the process's load (see `local-io.ts`).
async function resolveExisting(lexical: string): Promise<Resolution | null> {
  try {
    return { absolute: await realpathOf(lexical), exists: true };
  } catch {
    return null;
  }
}

// Component-by-component resolution mirroring the kernel's path walk. `realpath` alone cannot be
// used: it fails on a dangling symlink, and "deepest existing ancestor + rest" would then write
// THROUGH the dangling link to wherever it points.
async function resolveComponents(rootReal: string, lexical: string, input: string): Promise<Resolution> {
  // The real root has no symlinks, so a path lexically under it only needs the tail walked.
  let current: string;
  let queue: string[];
  const underRoot = relativeInside(rootReal, lexical);
  if (underRoot !== null) {
    current = rootReal;
    queue = underRoot === '.' ? [] : underRoot.split('/');
  } else {
    current = '/';
    queue = components(lexical);
  }
  let hops = 0;
  let exists = true;
  while (queue.length > 0) {
    const part = queue.shift() as string;
    if (part === '' || part === '.') continue;
    if (part === '..') {
      current = posix.dirname(current);
      continue;
    }
    const next = current === '/' ? `/${part}` : `${current}/${part}`;
    if (!exists) {
      current = next;
      continue;
    }
    let stats;
    try {
      stats = await lstatOf(next);
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') {
        exists = false;
        current = next;
        continue;
      }
      throw error;
    }
    if (stats.isSymbolicLink()) {
      hops += 1;
      if (hops > MAX_SYMLINK_HOPS) {
        throw pathSecurityError(input, 'symlink_loop', 'too many levels of symbolic links', { errno: 'ELOOP' });
      }
      const target = await readlinkOf(next);
      if (target.startsWith('/')) current = '/';
      // components() keeps `..`, which is then applied to the link's directory like the kernel does.
      queue = [...components(target), ...queue];
      continue;
    }
    current = next;
  }
  return { absolute: current, exists };
}
