import { CodeError } from './code-error.js';

/**
 * Host failures normalised to a small set of reasons, whatever the host: `ENOENT` from a local
 * filesystem and `NoSuchKey` from S3 both become `NotFound`.
 */
export type HostFailureReason = 'NotFound' | 'PermissionDenied' | 'AlreadyExists' | 'Conflict' | 'Unavailable';

/** A failure raised by a workspace backend or store, tagged with a {@link HostFailureReason}. */
export class HostFailure extends CodeError {
  readonly reason: HostFailureReason;
  /** Workspace-relative path (or key) the failure concerns, when there is one. */
  readonly path: string | undefined;

  constructor(reason: HostFailureReason, message: string, options: { path?: string; cause?: unknown; details?: Record<string, unknown> } = {}) {
    super('IO_ERROR', message, { details: { reason, ...(options.path === undefined ? {} : { path: options.path }), ...options.details }, cause: options.cause });
    this.name = 'HostFailure';
    this.reason = reason;
    this.path = options.path;
  }

  /** True for a {@link HostFailure}, matched structurally so copies of core agree. */
  static isHostFailure(value: unknown): value is HostFailure {
    return CodeError.isInstance(value) && typeof (value as { reason?: unknown }).reason === 'string' && value.code === 'IO_ERROR';
  }
}

const ERRNO_REASONS: Readonly<Record<string, HostFailureReason>> = {
  ENOENT: 'NotFound',
  ENOTDIR: 'NotFound',
  EACCES: 'PermissionDenied',
  EPERM: 'PermissionDenied',
  EROFS: 'PermissionDenied',
  EEXIST: 'AlreadyExists',
  ENOTEMPTY: 'Conflict',
  EISDIR: 'Conflict',
  EBUSY: 'Unavailable',
  EAGAIN: 'Unavailable',
  EMFILE: 'Unavailable',
  ENFILE: 'Unavailable',
  ENOSPC: 'Unavailable',
  EIO: 'Unavailable',
  ETIMEDOUT: 'Unavailable',
  ECONNREFUSED: 'Unavailable',
  ECONNRESET: 'Unavailable',
  NoSuchKey: 'NotFound',
  NotFound: 'NotFound',
  NoSuchBucket: 'NotFound',
  AccessDenied: 'PermissionDenied',
  Forbidden: 'PermissionDenied',
  PreconditionFailed: 'Conflict',
  ConditionalRequestConflict: 'Conflict',
  SlowDown: 'Unavailable',
  ServiceUnavailable: 'Unavailable',
  InternalError: 'Unavailable',
};

/**
 * Maps a host error (Node errno `code`, AWS error `name`/`Code`) to a {@link HostFailure}.
 * Unknown shapes become `Unavailable`; an existing HostFailure is returned unchanged.
 */
export function toHostFailure(error: unknown, path?: string): HostFailure {
  if (HostFailure.isHostFailure(error)) return error;
  const record = (typeof error === 'object' && error !== null ? error : {}) as Record<string, unknown>;
  const key = [record['code'], record['name'], record['Code']].find((k): k is string => typeof k === 'string' && Object.hasOwn(ERRNO_REASONS, k));
  const reason: HostFailureReason = key === undefined ? 'Unavailable' : (ERRNO_REASONS[key] ?? 'Unavailable');
  const message = error instanceof Error ? error.message : String(error);
  return new HostFailure(reason, message, { cause: error, ...(path === undefined ? {} : { path }), details: key === undefined ? {} : { hostCode: key } });
}
