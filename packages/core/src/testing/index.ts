// Test doubles and contract suites of @a3s-lab/code-core (the `/testing` subpath). Exports are
// listed by name.
export { MemoryWorkspaceBackend } from './memory-workspace-backend.js';
export type { MemoryWorkspaceBackendOptions } from './memory-workspace-backend.js';
export { globToRegExp } from '../glob/glob-to-regexp.js';
export type { GlobOptions } from '../glob/glob-to-regexp.js';
export { describeWorkspaceContract } from './workspace-contract.js';
export type { WorkspaceContractFixture, WorkspaceContractOptions } from './workspace-contract.js';
export type { ContractCaseContext, ContractRunner } from './contract-runner.js';
export { describeSessionStoreContract, sampleSessionSnapshot, sessionStoreContract } from './session-store-contract.js';
export type { SessionStoreContractCase, SessionStoreContractFixture } from './session-store-contract.js';
export { FakeLlmClient, callContent, callEvents, textTurn, toolTurn } from './fake-llm-client.js';
export type { FakeCall, ScriptStep } from './fake-llm-client.js';
export { createTestToolContext } from './test-tool-context.js';
export type { TestArtifact, TestToolContext, TestToolContextOptions } from './test-tool-context.js';
