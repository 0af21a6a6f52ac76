import { describe, expect, expectTypeOf, it } from 'vitest';
import type { StandaloneSandboxOptions } from '@a3s-lab/code-local';
import type * as mcp from '@a3s-lab/code-mcp';
import type * as s3 from '@a3s-lab/code-s3';
import type { S3LeaseAttempt, S3LeaseRecord, S3SessionLeasesLike } from './s3-types.js';
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

  it('declares its own MCP and S3 data types, equal to those of the optional packages (which its typings never name)', () => {
    // The facade's copies (mcp-types.ts, s3-types.ts) and the owning packages' declarations: a
    // field added, dropped or retyped on either side fails the typecheck.
    expectTypeOf<sdk.McpServerConfig>().toEqualTypeOf<mcp.McpServerConfig>();
    expectTypeOf<sdk.McpServerStatus>().toEqualTypeOf<mcp.McpServerStatus>();
    expectTypeOf<sdk.McpTransportConfig>().toEqualTypeOf<mcp.McpTransportConfig>();
    expectTypeOf<sdk.McpStdioTransportConfig>().toEqualTypeOf<mcp.McpStdioTransportConfig>();
    expectTypeOf<sdk.McpHttpTransportConfig>().toEqualTypeOf<mcp.McpHttpTransportConfig>();
    expectTypeOf<sdk.McpServerSandbox>().toEqualTypeOf<mcp.McpServerSandbox>();
    expectTypeOf<sdk.McpToolChanges>().toEqualTypeOf<mcp.McpToolChanges>();
    expectTypeOf<sdk.McpLeftOutTool>().toEqualTypeOf<mcp.McpLeftOutTool>();
    expectTypeOf<sdk.McpSanitizedTool>().toEqualTypeOf<mcp.McpSanitizedTool>();
    // What the SDK hands to @a3s-lab/code-local's sandboxedCommand.
    expectTypeOf<sdk.McpServerSandbox>().toEqualTypeOf<StandaloneSandboxOptions>();
    expectTypeOf<sdk.S3ConnectionOptions>().toEqualTypeOf<s3.S3ConnectionOptions>();
    expectTypeOf<sdk.S3WorkspaceBackendOptions>().toEqualTypeOf<s3.S3WorkspaceBackendOptions>();
    expectTypeOf<S3LeaseRecord>().toEqualTypeOf<s3.S3LeaseRecord>();
    expectTypeOf<S3LeaseAttempt>().toEqualTypeOf<s3.S3LeaseAttempt>();
    // The package's store also takes an existing S3Client (a type these typings must not name);
    // the facade's options are the rest.
    expectTypeOf<sdk.S3SessionStoreOptions>().toExtend<s3.S3SessionStoreOptions>();
    expectTypeOf<s3.S3SessionLeases>().toExtend<S3SessionLeasesLike>();
    // The shapes the facade promises.
    expectTypeOf<sdk.McpTransportConfig['type']>().toEqualTypeOf<'stdio' | 'http' | 'streamable-http'>();
    expectTypeOf<sdk.McpServerConfig['transport']>().toEqualTypeOf<sdk.McpTransportConfig>();
    expectTypeOf<sdk.McpServerStatus['source']>().toEqualTypeOf<'session' | 'global'>();
    expectTypeOf<sdk.S3WorkspaceBackendOptions>().toExtend<sdk.S3ConnectionOptions>();
    expectTypeOf<sdk.S3SessionStoreOptions['client']>().toEqualTypeOf<undefined>();
    expectTypeOf<ReturnType<S3SessionLeasesLike['acquire']>>().toEqualTypeOf<Promise<S3LeaseAttempt>>();
    expectTypeOf<sdk.Session['addMcp']>().parameter(0).toEqualTypeOf<sdk.McpServerConfig>();
    expectTypeOf<sdk.Session['mcps']>().returns.resolves.toEqualTypeOf<sdk.McpServerStatus[]>();
    expectTypeOf<sdk.S3SessionStore['sessionLeases']>().returns.resolves.toEqualTypeOf<S3SessionLeasesLike>();
  });
});
