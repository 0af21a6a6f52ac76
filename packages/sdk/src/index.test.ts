import { describe, expect, expectTypeOf, it } from 'vitest';
import type * as core from '@a3s-lab/code-core';
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
      'PostgresSessionStore',
      'S3SessionStore',
      'S3WorkspaceBackend',
      'SESSION_SNAPSHOT_SCHEMA',
      'Session',
      'VERIFICATION_REPORT_SCHEMA',
      'agentEventTypesV1',
      'createFleet',
      'createLlmClient',
      'defineTool',
      'isKnownAgentEvent',
      'parseAgentEvent',
      'secretEnvironmentValues',
    ]);
  });

  it('names the MCP and S3 data types of core, never the optional packages', () => {
    expectTypeOf<sdk.McpServerConfig>().toEqualTypeOf<core.McpServerConfig>();
    expectTypeOf<sdk.McpServerStatus>().toEqualTypeOf<core.McpServerStatus>();
    expectTypeOf<sdk.McpTransportConfig>().toEqualTypeOf<core.McpTransportConfig>();
    expectTypeOf<sdk.S3ConnectionOptions>().toEqualTypeOf<core.S3ConnectionOptions>();
    expectTypeOf<sdk.S3WorkspaceBackendOptions>().toEqualTypeOf<core.S3WorkspaceBackendOptions>();
    expectTypeOf<sdk.S3SessionStoreOptions>().toEqualTypeOf<core.S3SessionStoreOptions>();
    expectTypeOf<sdk.Session['addMcp']>().parameter(0).toEqualTypeOf<core.McpServerConfig>();
    expectTypeOf<sdk.Session['mcps']>().returns.resolves.toEqualTypeOf<core.McpServerStatus[]>();
    expectTypeOf<sdk.S3SessionStore['sessionLeases']>().returns.resolves.toEqualTypeOf<core.S3SessionLeasesLike>();
  });
});
