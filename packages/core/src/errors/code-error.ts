import type { ErrorCode } from './error-codes.js';

const MARKER = Symbol.for('a3s-lab.code.error');

/** Options accepted by the {@link CodeError} constructor. */
export interface CodeErrorOptions {
  /** Structured, JSON-serialisable facts about the failure (limits, field names, ids). */
  readonly details?: Readonly<Record<string, unknown>>;
  /** The underlying failure, when there is one. */
  readonly cause?: unknown;
}

/**
 * The one error class of A3S Code. Every failure that reaches a host carries a stable
 * {@link ErrorCode} in `code` and structured `details`.
 *
 * Identity is checked with {@link CodeError.isInstance} (a `Symbol.for` marker), so two copies
 * of this package loaded side by side still recognise each other's errors.
 */
export class CodeError extends Error {
  /** @internal brand checked by {@link CodeError.isInstance}. */
  readonly [MARKER] = true;
  /** Stable machine-readable code. */
  readonly code: ErrorCode;
  /** Structured, JSON-serialisable facts about the failure. */
  readonly details: Readonly<Record<string, unknown>>;

  constructor(code: ErrorCode, message: string, options: CodeErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'CodeError';
    this.code = code;
    this.details = options.details ?? {};
  }

  /** True for any {@link CodeError}, including one created by another copy of this package. */
  static isInstance(value: unknown): value is CodeError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[MARKER] === true;
  }

  /** True when `value` is a {@link CodeError} with the given code. */
  static hasCode(value: unknown, code: ErrorCode): value is CodeError {
    return CodeError.isInstance(value) && value.code === code;
  }

  /**
   * The error of a cancelled operation (a run, a task or a call stopped by its caller, a closed
   * session, a stopped stream or a deadline): `SESSION_ERROR` with `details.cancelled: true`.
   * Every cancellation is built here; read it with {@link CodeError.isCancelled}.
   */
  static cancelled(message: string, options: CodeErrorOptions = {}): CodeError {
    return new CodeError('SESSION_ERROR', message, { ...options, details: { ...options.details, cancelled: true } });
  }

  /** True when `value` is a cancellation (see {@link CodeError.cancelled}), not a failure. */
  static isCancelled(value: unknown): value is CodeError {
    return CodeError.hasCode(value, 'SESSION_ERROR') && value.details['cancelled'] === true;
  }

  /**
   * The same test for an error on the wire (an `error` event's `code` and `payload.details`, or a
   * {@link CodeError.toJSON} view): hosts that read events call this instead of reading the
   * `details.cancelled` key themselves.
   */
  static isCancellation(error: { readonly code?: string | undefined; readonly details?: Readonly<Record<string, unknown>> | undefined } | undefined): boolean {
    return error?.code === 'SESSION_ERROR' && error.details?.['cancelled'] === true;
  }

  /** A JSON-safe view: `{ code, message, details }`. */
  toJSON(): { code: ErrorCode; message: string; details: Readonly<Record<string, unknown>> } {
    return { code: this.code, message: this.message, details: this.details };
  }
}
