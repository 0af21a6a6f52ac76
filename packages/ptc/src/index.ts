// Public surface of @a3s-lab/code-ptc. Exports are listed by name.
export { createProgramTool } from './program-tool.js';
export type { ProgramToolArgs, ProgramToolOptions } from './program-tool.js';
export { toProgramArgs } from './to-program-args.js';
export type { ProgramOptions } from './to-program-args.js';
export {
  DEFAULT_MAX_OUTPUT_BYTES,
  DEFAULT_MAX_TOOL_CALLS,
  DEFAULT_PROGRAM_TIMEOUT_MS,
  MAX_LOG_BYTES,
  MAX_OUTPUT_BYTES_CEILING,
  MAX_PROGRAM_TIMEOUT_MS,
  MAX_RESULT_ARTIFACT_BYTES,
  MAX_SOURCE_BYTES,
  MAX_TOOL_CALLS_CEILING,
  ProgramLimits,
  VM_MAX_STACK_SIZE,
  VM_MEMORY_LIMIT_BYTES,
  resolveProgramLimits,
} from './program-limits.js';
export type { ProgramLimitsPolicy, ProgramRunLimits } from './program-limits.js';
export { PROGRAM_ERROR_CODES } from './program-error-code.js';
export type { ProgramError, ProgramErrorCode } from './program-error-code.js';
export { runProgram } from './run-program.js';
export { NEVER_CALLABLE_FROM_PROGRAM } from './vm-bounds.js';
export type { ProgramLogEntry, ProgramRunOutcome, ProgramRunRequest, ProgramToolCall } from './program-run.js';
export type { ProgramMetadata } from './program-output.js';
export { CTX_HELPERS } from './ctx-helpers.js';
export type { CtxHelper } from './ctx-helpers.js';
