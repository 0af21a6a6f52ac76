import { CodeError } from '../errors/code-error.js';

/**
 * Encodes an opaque cursor: the item offset plus a fingerprint of the query, so a cursor is never
 * silently applied to a different query.
 */
export function encodeCursor(offset: number, query: unknown): string {
  // The JSON is ASCII (a number and a hex fingerprint), so btoa's Latin-1 input is exact.
  return btoa(JSON.stringify({ o: offset, q: fingerprint(query) })).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/**
 * Decodes a cursor made by {@link encodeCursor} for the same query; `undefined` gives offset 0.
 *
 * @throws CodeError `TOOL_ERROR` (`invalid_argument`) for a malformed or foreign cursor.
 */
export function decodeCursor(cursor: string | undefined, query: unknown): number {
  if (cursor === undefined || cursor === '') return 0;
  let parsed: unknown;
  try {
    parsed = JSON.parse(atob(cursor.replace(/-/g, '+').replace(/_/g, '/')));
  } catch {
    parsed = undefined;
  }
  const record = (typeof parsed === 'object' && parsed !== null ? parsed : {}) as { o?: unknown; q?: unknown };
  if (typeof record.o !== 'number' || !Number.isSafeInteger(record.o) || record.o < 0 || record.q !== fingerprint(query)) {
    const message = 'cursor is invalid or belongs to a different query';
    throw new CodeError('TOOL_ERROR', message, { details: { errorKind: { type: 'invalid_argument', message } } });
  }
  return record.o;
}

// Two 32-bit FNV-1a hashes with different offsets (runtime-neutral; a mismatch detector, not a MAC).
function fingerprint(query: unknown): string {
  const text = JSON.stringify(query) ?? '';
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ text.length;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    a = Math.imul(a ^ code, 0x01000193);
    b = Math.imul(b ^ code, 0x5bd1e995);
  }
  return `${(a >>> 0).toString(16).padStart(8, '0')}${(b >>> 0).toString(16).padStart(8, '0')}`;
}
