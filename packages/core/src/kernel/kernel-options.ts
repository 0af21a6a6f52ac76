import { CodeError } from '../errors/code-error.js';

/** Default deadline of a tool call (10 minutes). */
export const DEFAULT_TOOL_TIMEOUT_MS = 600_000;
/** Default inline output bound (100 KiB). */
export const DEFAULT_MAX_INLINE_OUTPUT_BYTES = 102_400;
/** Smallest inline output bound: room for a head, a tail and the omission marker. */
export const MIN_INLINE_OUTPUT_BYTES = 256;
/** Default number of top-level calls executing at once. */
export const DEFAULT_MAX_CONCURRENT_TOOLS = 16;
/** Default deepest nesting (`ancestry.length`). */
export const DEFAULT_MAX_NESTING_DEPTH = 8;
/** Default time an aborted tool gets to settle. */
export const DEFAULT_ABORT_GRACE_MS = 1_000;

/** The numeric settings of a kernel after defaults and validation. */
export interface KernelSettings {
  readonly toolTimeoutMs: number;
  readonly maxInlineOutputBytes: number;
  readonly maxConcurrentTools: number;
  readonly maxNestingDepth: number;
  readonly abortGraceMs: number;
}

function integer(value: unknown, field: string, fallback: number, min: number, max = 2_147_483_647): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min || value > max) {
    throw new CodeError('SESSION_CONFIGURATION_ERROR', `${field} must be an integer between ${min} and ${max}, got ${String(value)}`, { details: { field, value } });
  }
  return value;
}

/** Applies defaults to the numeric kernel options; SESSION_CONFIGURATION_ERROR names a bad field. */
export function validateKernelOptions(options: {
  readonly toolTimeoutMs?: number | undefined;
  readonly maxInlineOutputBytes?: number | undefined;
  readonly maxConcurrentTools?: number | undefined;
  readonly maxNestingDepth?: number | undefined;
  readonly abortGraceMs?: number | undefined;
}): KernelSettings {
  return {
    toolTimeoutMs: integer(options.toolTimeoutMs, 'toolTimeoutMs', DEFAULT_TOOL_TIMEOUT_MS, 1),
    maxInlineOutputBytes: integer(options.maxInlineOutputBytes, 'maxInlineOutputBytes', DEFAULT_MAX_INLINE_OUTPUT_BYTES, MIN_INLINE_OUTPUT_BYTES, Number.MAX_SAFE_INTEGER),
    maxConcurrentTools: integer(options.maxConcurrentTools, 'maxConcurrentTools', DEFAULT_MAX_CONCURRENT_TOOLS, 1, 1024),
    maxNestingDepth: integer(options.maxNestingDepth, 'maxNestingDepth', DEFAULT_MAX_NESTING_DEPTH, 1, 64),
    abortGraceMs: integer(options.abortGraceMs, 'abortGraceMs', DEFAULT_ABORT_GRACE_MS, 0, 60_000),
  };
}
