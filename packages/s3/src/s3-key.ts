import { CodeError } from '@a3s-lab/code-core';

/** S3's limit on a key, in UTF-8 bytes (prefix included). */
export const MAX_KEY_BYTES = 1024;

const encoder = new TextEncoder();
// A key is UTF-8: a lone surrogate cannot be encoded (TextEncoder would silently write U+FFFD).
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** A workspace path mapped to its object key. */
export interface ConfinedKey {
  /** Canonical workspace-relative path (`.` for the root). */
  readonly relative: string;
  /** Object key: `<prefix>/<relative>`, or the prefix itself for the root (`''` with no prefix). */
  readonly key: string;
}

/**
 * Normalises a configured prefix: surrounding `/` dropped, then every segment must be non-empty
 * and neither `.` nor `..` (so no key can climb out of it), NUL-free and well-formed UTF-16.
 *
 * @throws CodeError CONFIG_ERROR naming `field`.
 */
export function normalizePrefix(prefix: string, field = 'prefix'): string {
  if (typeof prefix !== 'string') throw new CodeError('CONFIG_ERROR', `${field} must be a string`, { details: { field } });
  const trimmed = prefix.replace(/^\/+/, '').replace(/\/+$/, '');
  if (trimmed === '') return '';
  const bad = trimmed.split('/').find((segment) => segment === '' || segment === '.' || segment === '..');
  if (bad !== undefined || trimmed.includes('\0') || trimmed.includes('\\') || LONE_SURROGATE.test(trimmed) || encoder.encode(trimmed).length > MAX_KEY_BYTES - 2) {
    throw new CodeError('CONFIG_ERROR', `${field} ${JSON.stringify(trimmed.slice(0, 200))} is not a valid key prefix: use '/'-separated segments without '.', '..', empty segments, backslashes or NUL`, { details: { field } });
  }
  return trimmed;
}

/**
 * The ONE confinement function of the S3 backend: maps a workspace path to its key under
 * `prefix`. `.` and empty segments are dropped and `..` is resolved lexically; a path that
 * climbs above the root, an absolute path, a NUL, a backslash or a lone surrogate is refused
 * with SECURITY_ERROR; a key over {@link MAX_KEY_BYTES} UTF-8 bytes is an invalid argument.
 */
export function confineKey(prefix: string, path: string, root: string): ConfinedKey {
  if (typeof path !== 'string') throw securityError(String(path), root, 'not a string');
  if (path.startsWith('/')) throw securityError(path, root, 'absolute paths are not allowed');
  if (path.includes('\0')) throw securityError(path, root, 'NUL in path');
  if (path.includes('\\')) throw securityError(path, root, 'backslash in path');
  if (LONE_SURROGATE.test(path)) throw securityError(path, root, 'path is not well-formed Unicode');
  const segments: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (segments.length === 0) throw securityError(path, root, 'path leads out of the workspace');
      segments.pop();
      continue;
    }
    segments.push(segment);
  }
  const relative = segments.length === 0 ? '.' : segments.join('/');
  const key = relative === '.' ? prefix : prefix === '' ? relative : `${prefix}/${relative}`;
  if (encoder.encode(key).length > MAX_KEY_BYTES) {
    const message = `path ${JSON.stringify(relative.slice(0, 120))} makes an object key longer than ${MAX_KEY_BYTES} UTF-8 bytes`;
    throw new CodeError('TOOL_ERROR', message, { details: { errorKind: { type: 'invalid_argument', message } } });
  }
  return { relative, key };
}

/** The workspace-relative path of a key listed under `prefix` (the inverse of {@link confineKey}). */
export function relativeOf(prefix: string, key: string): string {
  return prefix === '' ? key : key.slice(prefix.length + 1);
}

/** The key prefix listing everything under a confined path (`''` for the root with no prefix). */
export function directoryPrefix(key: string): string {
  return key === '' ? '' : `${key}/`;
}

function securityError(path: string, root: string, why: string): CodeError {
  return new CodeError('SECURITY_ERROR', `path ${JSON.stringify(path.slice(0, 200))} is outside the workspace ${root}: ${why}`, { details: { path: path.slice(0, 200), root } });
}
