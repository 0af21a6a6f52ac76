import { CodeError } from '@a3s-lab/code-core';
import { MAX_LOG_BYTES, VM_MAX_STACK_SIZE, VM_MEMORY_LIMIT_BYTES } from './vm-bounds.js';

export { MAX_LOG_BYTES, MAX_RESULT_ARTIFACT_BYTES, VM_MAX_STACK_SIZE, VM_MEMORY_LIMIT_BYTES } from './vm-bounds.js';

/** Default wall-clock deadline of one program run, in ms (REFERENCE.md). */
export const DEFAULT_PROGRAM_TIMEOUT_MS = 30_000;
/** Default number of `ctx` tool calls one run may make. */
export const DEFAULT_MAX_TOOL_CALLS = 20;
/** Default byte bound of the program's rendered result (`ToolResult.output`). */
export const DEFAULT_MAX_OUTPUT_BYTES = 65_536;
/** Largest accepted script source, in UTF-8 bytes (192 KiB). */
export const MAX_SOURCE_BYTES = 192 * 1024;
/** Upper bound a caller may ask for in `limits.timeoutMs` (10 minutes). */
export const MAX_PROGRAM_TIMEOUT_MS = 600_000;
/** Upper bound a caller may ask for in `limits.maxToolCalls`. */
export const MAX_TOOL_CALLS_CEILING = 1_000;
/** Upper bound a caller may ask for in `limits.maxOutputBytes` (1 MiB). */
export const MAX_OUTPUT_BYTES_CEILING = 1024 * 1024;

/** The per-run limits a caller can choose (`limits` argument of `program`). */
export interface ProgramRunLimits {
  /** Wall-clock deadline in ms, measured on the host. Default {@link DEFAULT_PROGRAM_TIMEOUT_MS}. */
  readonly timeoutMs: number;
  /** Tool calls allowed; the next one ends the run. Default {@link DEFAULT_MAX_TOOL_CALLS}. */
  readonly maxToolCalls: number;
  /** Byte bound of the rendered result. Default {@link DEFAULT_MAX_OUTPUT_BYTES}. */
  readonly maxOutputBytes: number;
}

/** The whole sandbox policy: per-run defaults plus the fixed VM bounds. */
export interface ProgramLimitsPolicy extends ProgramRunLimits {
  /** See {@link MAX_SOURCE_BYTES}. */
  readonly maxSourceBytes: number;
  /** See {@link VM_MEMORY_LIMIT_BYTES}. */
  readonly memoryLimitBytes: number;
  /** See {@link VM_MAX_STACK_SIZE}. */
  readonly maxStackSizeBytes: number;
  /** See {@link MAX_LOG_BYTES}. */
  readonly maxLogBytes: number;
}

/** The default sandbox policy, one object for every limit. */
export const ProgramLimits: ProgramLimitsPolicy = Object.freeze({
  timeoutMs: DEFAULT_PROGRAM_TIMEOUT_MS,
  maxToolCalls: DEFAULT_MAX_TOOL_CALLS,
  maxOutputBytes: DEFAULT_MAX_OUTPUT_BYTES,
  maxSourceBytes: MAX_SOURCE_BYTES,
  memoryLimitBytes: VM_MEMORY_LIMIT_BYTES,
  maxStackSizeBytes: VM_MAX_STACK_SIZE,
  maxLogBytes: MAX_LOG_BYTES,
});

const RUN_LIMIT_CEILINGS: Readonly<Record<keyof ProgramRunLimits, number>> = {
  timeoutMs: MAX_PROGRAM_TIMEOUT_MS,
  maxToolCalls: MAX_TOOL_CALLS_CEILING,
  maxOutputBytes: MAX_OUTPUT_BYTES_CEILING,
};

/**
 * Merges a caller's `limits` object over `defaults`. Each value must be a positive integer no
 * larger than its ceiling; anything else is a TOOL_ERROR with `details.errorKind`
 * invalid_argument naming the field.
 */
export function resolveProgramLimits(value: unknown, defaults: ProgramRunLimits = ProgramLimits): ProgramRunLimits {
  if (value === undefined || value === null) return { timeoutMs: defaults.timeoutMs, maxToolCalls: defaults.maxToolCalls, maxOutputBytes: defaults.maxOutputBytes };
  if (typeof value !== 'object' || Array.isArray(value)) throw invalidLimit('limits', 'must be an object');
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (!(key in RUN_LIMIT_CEILINGS)) throw invalidLimit(key, `is not a program limit (use timeoutMs, maxToolCalls, maxOutputBytes)`);
  }
  const pick = (key: keyof ProgramRunLimits): number => {
    const raw = record[key];
    if (raw === undefined) return defaults[key];
    const ceiling = RUN_LIMIT_CEILINGS[key];
    if (typeof raw !== 'number' || !Number.isInteger(raw) || raw < 1 || raw > ceiling) {
      throw invalidLimit(key, `must be an integer from 1 to ${ceiling}`);
    }
    return raw;
  };
  return { timeoutMs: pick('timeoutMs'), maxToolCalls: pick('maxToolCalls'), maxOutputBytes: pick('maxOutputBytes') };
}

function invalidLimit(field: string, problem: string): CodeError {
  const message = `program limits.${field} ${problem}`;
  return new CodeError('TOOL_ERROR', message, { details: { field: `limits.${field}`, errorKind: { type: 'invalid_argument', message } } });
}
