import { describe, expect, it } from 'vitest';
import * as core from './index.js';

describe('@a3s-lab/code-core public surface', () => {
  it('exports exactly these runtime values', () => {
    // Adding or removing an export is an API decision: update this list on purpose.
    expect(Object.keys(core).sort()).toEqual([
      'AGENT_EVENT_TYPES_V1',
      'CodeError',
      'DEFAULT_TOOL_CAPABILITIES',
      'DefaultSecurityProvider',
      'ERROR_CODES',
      'EventStream',
      'HOOK_EVENTS',
      'HostFailure',
      'InvocationRuntime',
      'MAX_UNTRUSTED_PATTERN_LENGTH',
      'MemoryRunJournal',
      'MemorySessionStore',
      'READ_ONLY_TOOL_CAPABILITIES',
      'REDACTION_MARKER',
      'SESSION_SNAPSHOT_SCHEMA',
      'SESSION_STATE_VERSION',
      'TOOL_ERROR_KIND_TYPES',
      'VERIFICATION_REPORT_JSON_SCHEMA',
      'VERIFICATION_REPORT_SCHEMA',
      'agentEventJsonSchemaV1',
      'agentEventTypesV1',
      'createAgentEvent',
      'defineTool',
      'isErrorCode',
      'isKnownAgentEvent',
      'isKnownAgentEventType',
      'isSessionStore',
      'parseAgentEvent',
      'parseSessionSnapshot',
      'parseSessionSnapshotText',
      'serializeSessionSnapshot',
      'sessionOptionsJsonSchema',
      'toCodeError',
      'toHostFailure',
      'toolFailure',
      'toolStepKey',
      'unsafePatternReason',
      'unsafeSchemaPatterns',
      'validateSessionId',
      'validateVerificationReport',
      'verificationSummaryText',
    ]);
  });
});
