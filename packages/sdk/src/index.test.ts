import { describe, expect, it } from 'vitest';
import * as sdk from './index.js';

describe('@a3s-lab/code public surface', () => {
  it('exports exactly these runtime values', () => {
    // Adding or removing an export is an API decision: update this list on purpose.
    expect(Object.keys(sdk).sort()).toEqual([
      'AGENT_EVENT_TYPES_V1',
      'Agent',
      'AgentDirHandle',
      'CodeError',
      'ERROR_CODES',
      'EventStream',
      'FileSessionStore',
      'HostFailure',
      'InvocationRuntime',
      'LocalWorkspaceBackend',
      'MemorySessionStore',
      'S3SessionStore',
      'S3WorkspaceBackend',
      'SESSION_SNAPSHOT_SCHEMA',
      'Session',
      'VERIFICATION_REPORT_SCHEMA',
      'agentEventTypesV1',
      'createLlmClient',
      'defineTool',
      'isKnownAgentEvent',
      'parseAgentEvent',
      'secretEnvironmentValues',
    ]);
  });
});
