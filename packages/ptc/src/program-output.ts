import type { ToolErrorKind, ToolOutput } from '@a3s-lab/code-core';
import { programError } from './program-error-code.js';
import type { ProgramError } from './program-error-code.js';
import { MAX_RESULT_ARTIFACT_BYTES } from './program-limits.js';
import type { ProgramRunLimits } from './program-limits.js';
import type { ProgramLogEntry, ProgramRunOutcome, ProgramToolCall } from './program-run.js';
import { truncateUtf8, utf8ByteLength } from '@a3s-lab/code-core/util';

/** Bytes of an oversized result shown inline before the artifact reference. */
const PREVIEW_BYTES = 2_048;

/** `metadata.program` of every program result. */
export interface ProgramMetadata {
  readonly tool_calls: readonly ProgramToolCall[];
  readonly duration_ms: number;
  readonly limits: ProgramRunLimits;
  readonly logs: readonly ProgramLogEntry[];
  readonly logs_truncated: boolean;
  /** Present on failure: the typed reason with the exceeded limit in `details`. */
  readonly error?: ProgramError;
}

/**
 * Turns a run outcome into the tool's output. A string result is shown as is, anything else
 * as pretty JSON; `metadata.script_result` carries the value itself. A result over
 * `maxOutputBytes` fails with PROGRAM_OUTPUT_LIMIT (so the model learns to return less) but is
 * not lost: up to {@link MAX_RESULT_ARTIFACT_BYTES} it is stored as an artifact and referenced.
 */
export function renderProgramOutcome(
  outcome: ProgramRunOutcome,
  limits: ProgramRunLimits,
  storeArtifact: (content: string, options: { readonly mediaType: string }) => string,
): ToolOutput {
  const base = { tool_calls: outcome.toolCalls, duration_ms: outcome.durationMs, limits, logs: outcome.logs, logs_truncated: outcome.logsTruncated };
  if (outcome.error !== undefined || outcome.encodedResult === undefined) {
    const error = outcome.error ?? programError('PROGRAM_VM_CRASH', 'program ended without a result');
    return failure(error, { ...base, error }, limits);
  }
  const isText = outcome.encodedResult.startsWith('s');
  const text = outcome.encodedResult.slice(1);
  const bytes = utf8ByteLength(text);
  if (bytes <= limits.maxOutputBytes) {
    const program: ProgramMetadata = base;
    return { output: text, metadata: { program, script_result: isText ? text : (JSON.parse(text) as unknown) } };
  }
  const artifact = bytes <= MAX_RESULT_ARTIFACT_BYTES ? storeArtifact(text, { mediaType: isText ? 'text/plain' : 'application/json' }) : undefined;
  const error = programError('PROGRAM_OUTPUT_LIMIT', `program result is ${bytes} bytes, over maxOutputBytes ${limits.maxOutputBytes}`, {
    limit: limits.maxOutputBytes,
    bytes,
    ...(artifact === undefined ? {} : { artifact }),
  });
  const preview = truncateUtf8(text, Math.min(PREVIEW_BYTES, Math.floor(limits.maxOutputBytes / 2)));
  const where = artifact === undefined ? 'the result was too large to keep' : `full result: ${artifact}`;
  return {
    ...failure(error, { ...base, error }, limits, `\npreview:\n${preview}\n...\n${where}`),
    ...(artifact === undefined ? {} : { artifacts: [artifact] }),
  };
}

function failure(error: ProgramError, program: ProgramMetadata, limits: ProgramRunLimits, extra = ''): ToolOutput {
  const stack = typeof error.details['stack'] === 'string' && error.details['stack'].length > 0 ? `\n${error.details['stack']}` : '';
  const calls = program.tool_calls.length > 0 ? `\ntool calls made: ${program.tool_calls.length}` : '';
  const output = truncateUtf8(`program failed [${error.code}]: ${error.message}${stack}${calls}${extra}`, Math.max(limits.maxOutputBytes, 1_024));
  const errorKind = errorKindOf(error, program.duration_ms);
  return { output, exitCode: 1, ...(errorKind === undefined ? {} : { errorKind }), metadata: { program } };
}

function errorKindOf(error: ProgramError, durationMs: number): ToolErrorKind | undefined {
  switch (error.code) {
    case 'PROGRAM_TIMEOUT':
      return { type: 'timeout', op: 'program', duration_ms: durationMs };
    case 'PROGRAM_CANCELLED':
      return { type: 'cancelled', op: 'program' };
    case 'PROGRAM_SCRIPT_NOT_FOUND':
      return { type: 'not_found', path: typeof error.details['path'] === 'string' ? error.details['path'] : '' };
    case 'PROGRAM_INVALID_ARGUMENT':
    case 'PROGRAM_SOURCE_TOO_LARGE':
    case 'PROGRAM_SYNTAX_ERROR':
    case 'PROGRAM_INVALID_EXPORT':
      return { type: 'invalid_argument', message: error.message };
    default:
      return undefined;
  }
}
