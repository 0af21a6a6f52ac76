import { describe, expect, it } from 'vitest';
import { ERROR_CODES, isErrorCode } from './error-codes.js';
import { TOOL_ERROR_KIND_TYPES } from './tool-error-kind.js';

describe('ERROR_CODES', () => {
  it('lists the stable codes of REFERENCE.md, in order', () => {
    expect(ERROR_CODES).toEqual([
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
    ]);
  });

  it('isErrorCode accepts exactly those strings', () => {
    for (const code of ERROR_CODES) expect(isErrorCode(code)).toBe(true);
    for (const value of ['config_error', 'CONFIG', '', 'NOT_A_CODE', 1, null, undefined, {}, ['CONFIG_ERROR']]) expect(isErrorCode(value)).toBe(false);
  });
});

describe('TOOL_ERROR_KIND_TYPES', () => {
  it('lists the tool error kinds of REFERENCE.md, in order', () => {
    expect(TOOL_ERROR_KIND_TYPES).toEqual([
      'version_conflict',
      'not_found',
      'invalid_argument',
      'hook_denied',
      'permission_denied',
      'unsupported',
      'timeout',
      'transport',
      'cancelled',
      'partial_failure',
      'rate_limited',
    ]);
  });
});
