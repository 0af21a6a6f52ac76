import { CodeError } from '@a3s-lab/code-core';

/** Wraps an S3 continuation token with the listed prefix, so a cursor never pages another listing. */
export function encodeListCursor(token: string, prefix: string): string {
  return Buffer.from(JSON.stringify({ t: token, k: prefix }), 'utf8').toString('base64url');
}

/**
 * The continuation token of a cursor made by {@link encodeListCursor} for the same prefix;
 * `undefined` for the first page.
 *
 * @throws CodeError `TOOL_ERROR` (`invalid_argument`) for a malformed or foreign cursor.
 */
export function decodeListCursor(cursor: string | undefined, prefix: string): string | undefined {
  if (cursor === undefined || cursor === '') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    parsed = undefined;
  }
  const record = (typeof parsed === 'object' && parsed !== null ? parsed : {}) as { t?: unknown; k?: unknown };
  if (typeof record.t !== 'string' || record.t === '' || record.k !== prefix) {
    const message = 'cursor is invalid or belongs to a different listing';
    throw new CodeError('TOOL_ERROR', message, { details: { errorKind: { type: 'invalid_argument', message } } });
  }
  return record.t;
}
