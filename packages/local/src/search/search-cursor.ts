import { createHash } from 'node:crypto';

import { CodeError } from '@a3s-lab/code-core';

/**
 * Encodes an opaque cursor: the item offset plus a fingerprint of the query, so a cursor is never
 * silently applied to a different query.
 */
export function encodeCursor(offset: number, query: unknown): string {
  return Buffer.from(JSON.stringify({ o: offset, q: fingerprint(query) }), 'utf8').toString('base64url');
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
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
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

function fingerprint(query: unknown): string {
  return createHash('sha256').update(JSON.stringify(query)).digest('base64url').slice(0, 16);
}
