import { CodeError } from '@a3s-lab/code';

/**
 * Stable codes of the server's own refusals. Failures that come from the SDK keep their
 * `CodeError` code (`SESSION_BUSY`, `SECURITY_ERROR`, ...) in the same `{ error: { code } }` body.
 */
export const SERVER_ERROR_CODES = [
  /** No `Authorization: Bearer <token>` header, or the wrong token (401). */
  'UNAUTHORIZED',
  /** The `Origin` header names a site that is not this server (403, cross-site request). */
  'FORBIDDEN_ORIGIN',
  /** The `Host` header is not one this server answers to (403, DNS rebinding). */
  'FORBIDDEN_HOST',
  /** The requested workspace is outside every configured workspace root (403). */
  'WORKSPACE_NOT_ALLOWED',
  /** The request body is larger than `maxBodyBytes` (413). */
  'BODY_TOO_LARGE',
  /** The body or a parameter is malformed, or carries a field the server does not act on (400). */
  'BAD_REQUEST',
  /** No such session, run, artifact or route (404). */
  'NOT_FOUND',
  /** Another server process holds the session's lease; retry after `Retry-After` seconds (409). */
  'SESSION_LEASED',
  /** The server is shutting down (503). */
  'SERVER_CLOSING',
] as const;

/** One of {@link SERVER_ERROR_CODES}. */
export type ServerErrorCode = (typeof SERVER_ERROR_CODES)[number];

/** HTTP status of each server code. */
const STATUS: Readonly<Record<ServerErrorCode, number>> = {
  UNAUTHORIZED: 401,
  FORBIDDEN_ORIGIN: 403,
  FORBIDDEN_HOST: 403,
  WORKSPACE_NOT_ALLOWED: 403,
  BODY_TOO_LARGE: 413,
  BAD_REQUEST: 400,
  NOT_FOUND: 404,
  SESSION_LEASED: 409,
  SERVER_CLOSING: 503,
};

/** HTTP status of SDK error codes that a client can act on; the rest are 500. */
const SDK_STATUS: Readonly<Record<string, number>> = {
  SESSION_BUSY: 409,
  SESSION_CLOSED: 409,
  SESSION_ERROR: 400,
  SESSION_CONFIGURATION_ERROR: 400,
  SECURITY_ERROR: 403,
  CONFIG_ERROR: 400,
  // The host cannot start the sandbox its configuration requires: not the client's fault.
  SANDBOX_UNAVAILABLE: 503,
};

/** A refusal of the server with a stable code, an HTTP status and structured details. */
export class ServerError extends Error {
  /** The stable code. */
  readonly code: ServerErrorCode;
  /** HTTP status derived from the code. */
  readonly status: number;
  /** Structured details (JSON-safe). */
  readonly details: Readonly<Record<string, unknown>>;

  constructor(code: ServerErrorCode, message: string, details: Record<string, unknown> = {}) {
    super(message);
    this.name = 'ServerError';
    this.code = code;
    this.status = STATUS[code];
    this.details = details;
  }
}

/** The JSON error body every failed request answers with. */
export interface ErrorBody {
  readonly error: { readonly code: string; readonly message: string; readonly details?: Readonly<Record<string, unknown>> };
}

/** Maps any thrown value to an HTTP status and the error body (SDK codes kept, unknown values are 500 INTERNAL_ERROR). */
export function toErrorResponse(error: unknown): { status: number; body: ErrorBody } {
  if (error instanceof ServerError) {
    return { status: error.status, body: { error: { code: error.code, message: error.message, details: error.details } } };
  }
  if (CodeError.isInstance(error)) {
    return { status: SDK_STATUS[error.code] ?? 500, body: { error: { code: error.code, message: error.message } } };
  }
  return { status: 500, body: { error: { code: 'INTERNAL_ERROR', message: error instanceof Error ? error.message : String(error) } } };
}
