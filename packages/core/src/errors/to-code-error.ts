import { CodeError } from './code-error.js';
import type { ErrorCode } from './error-codes.js';

/**
 * Normalises any thrown value into a {@link CodeError}. A CodeError (from any copy of core) is
 * returned as is; an `AbortError` becomes `SESSION_ERROR` with `details.cancelled`; anything else
 * becomes `fallbackCode` (default `INTERNAL_ERROR`) with the original value as `cause`.
 */
export function toCodeError(error: unknown, fallbackCode: ErrorCode = 'INTERNAL_ERROR'): CodeError {
  if (CodeError.isInstance(error)) return error;
  if (error instanceof Error) {
    if (error.name === 'AbortError') return CodeError.cancelled(error.message || 'operation cancelled', { cause: error });
    return new CodeError(fallbackCode, error.message || error.name, { cause: error });
  }
  if (typeof error === 'string') return new CodeError(fallbackCode, error, { cause: error });
  let text: string;
  try {
    text = JSON.stringify(error) ?? String(error);
  } catch {
    text = String(error);
  }
  return new CodeError(fallbackCode, `non-error value thrown: ${text}`, { cause: error });
}
