/**
 * Why a program run failed. Carried in `metadata.program.error.code` of the failed result, with
 * the exceeded limit in `metadata.program.error.details`. Stable strings: hosts and tests match
 * on them, never on message text.
 */
export const PROGRAM_ERROR_CODES = [
  /** Arguments the schema cannot express were wrong (both/neither of source and path, bad extension). */
  'PROGRAM_INVALID_ARGUMENT',
  /** `path` names no file. */
  'PROGRAM_SCRIPT_NOT_FOUND',
  /** Source longer than `MAX_SOURCE_BYTES`. */
  'PROGRAM_SOURCE_TOO_LARGE',
  /** The source does not parse as an ES module (an `import` is reported here too). */
  'PROGRAM_SYNTAX_ERROR',
  /** No callable `export default` / `run`. */
  'PROGRAM_INVALID_EXPORT',
  /** The script threw (or rejected with) something. */
  'PROGRAM_RUNTIME_ERROR',
  /** The returned value cannot be turned into JSON (BigInt, cycles...). */
  'PROGRAM_INVALID_RESULT',
  /** The host-side deadline passed. */
  'PROGRAM_TIMEOUT',
  /** The caller aborted the run. */
  'PROGRAM_CANCELLED',
  /**
   * The program awaits something nothing can settle: no `ctx` call pending and no job queued
   * (`await new Promise(() => {})`). Ended at once instead of holding a worker to its deadline.
   */
  'PROGRAM_DEADLOCK',
  /**
   * Every program worker stayed busy for the whole of the run's `timeoutMs` (the wait for a
   * worker counts against the run's own deadline); `details`: `{ limit, workers }`.
   */
  'PROGRAM_BUSY',
  /** One `ctx` call more than `maxToolCalls` was attempted. */
  'PROGRAM_TOOL_CALL_LIMIT',
  /** The rendered result is larger than `maxOutputBytes`. */
  'PROGRAM_OUTPUT_LIMIT',
  /** The VM heap hit `VM_MEMORY_LIMIT_BYTES`. */
  'PROGRAM_MEMORY_LIMIT',
  /** The VM (or the host stack beneath it) ran out of stack. */
  'PROGRAM_STACK_OVERFLOW',
  /** The WebAssembly module failed; it is replaced for the next run. */
  'PROGRAM_VM_CRASH',
] as const;

/** One of {@link PROGRAM_ERROR_CODES}. */
export type ProgramErrorCode = (typeof PROGRAM_ERROR_CODES)[number];

/** A typed program failure: the code, a readable message, and structured facts (the limit...). */
export interface ProgramError {
  readonly code: ProgramErrorCode;
  readonly message: string;
  readonly details: Readonly<Record<string, unknown>>;
}

/** Builds a {@link ProgramError}. */
export function programError(code: ProgramErrorCode, message: string, details: Readonly<Record<string, unknown>> = {}): ProgramError {
  return { code, message, details };
}
