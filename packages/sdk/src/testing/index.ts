// Test doubles and contract suites for hosts and backend authors (`@a3s-lab/code/testing`): the
// same exports as `@a3s-lab/code-core/testing`. None imports a test runner at load; the suites
// take the runner's `describe` / `it` (vitest or node:test). The scripted model server that
// drives the real provider clients over HTTP is in `@a3s-lab/code-testing`.
export {
  FakeLlmClient,
  MemoryWorkspaceBackend,
  callContent,
  callEvents,
  createTestToolContext,
  describeSessionStoreContract,
  describeWorkspaceContract,
  globToRegExp,
  sampleSessionSnapshot,
  sessionStoreContract,
  textTurn,
  toolTurn,
} from '@a3s-lab/code-core/testing';
export type {
  ContractCaseContext,
  ContractRunner,
  FakeCall,
  GlobOptions,
  MemoryWorkspaceBackendOptions,
  ScriptStep,
  SessionStoreContractCase,
  SessionStoreContractFixture,
  TestArtifact,
  TestToolContext,
  TestToolContextOptions,
  WorkspaceContractFixture,
  WorkspaceContractOptions,
} from '@a3s-lab/code-core/testing';
