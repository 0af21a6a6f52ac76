import { describe, expect, it } from 'vitest';
import * as ptc from './index.js';

describe('@a3s-lab/code-ptc public surface', () => {
  it('exports exactly these runtime values', () => {
    // Adding or removing an export is an API decision: update this list on purpose.
    expect(Object.keys(ptc).sort()).toEqual([
      'CTX_HELPERS',
      'DEFAULT_MAX_OUTPUT_BYTES',
      'DEFAULT_MAX_TOOL_CALLS',
      'DEFAULT_PROGRAM_TIMEOUT_MS',
      'MAX_LOG_BYTES',
      'MAX_OUTPUT_BYTES_CEILING',
      'MAX_PROGRAM_TIMEOUT_MS',
      'MAX_RESULT_ARTIFACT_BYTES',
      'MAX_SOURCE_BYTES',
      'MAX_TOOL_CALLS_CEILING',
      'NEVER_CALLABLE_FROM_PROGRAM',
      'PROGRAM_ERROR_CODES',
      'ProgramLimits',
      'VM_MAX_STACK_SIZE',
      'VM_MEMORY_LIMIT_BYTES',
      'createProgramTool',
      'resolveProgramLimits',
      'runProgram',
      'toProgramArgs',
    ]);
  });
});
