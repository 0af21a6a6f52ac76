/**
 * Stable error codes carried by every {@link CodeError}. Hosts match on these strings, never on
 * message text. The list is part of the public API: adding a code is an API decision, removing
 * or renaming one is a breaking change.
 */
export const ERROR_CODES = [
  'CONFIG_ERROR',
  'LLM_ERROR',
  'TOOL_ERROR',
  'SESSION_ERROR',
  'SESSION_CONFIGURATION_ERROR',
  'SESSION_INITIALIZATION_ERROR',
  'SESSION_CLOSED',
  'SESSION_BUSY',
  'BUDGET_EXHAUSTED',
  'SECURITY_ERROR',
  'CONTEXT_ERROR',
  'MCP_ERROR',
  'QUEUE_ERROR',
  'IO_ERROR',
  'SERIALIZATION_ERROR',
  'INTERNAL_ERROR',
  'SANDBOX_UNAVAILABLE',
] as const;

/** One of {@link ERROR_CODES}. */
export type ErrorCode = (typeof ERROR_CODES)[number];

const codeSet: ReadonlySet<string> = new Set(ERROR_CODES);

/** True when `value` is one of the stable {@link ErrorCode} strings. */
export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && codeSet.has(value);
}
