// Public surface of @a3s-lab/code-testing. Exports are listed by name.
export { startScriptedModelServer } from './server/scripted-model-server.js';
export type { ScriptedModelServer, ScriptedModelServerOptions } from './server/scripted-model-server.js';
export type { RecordedRequest, WireProtocol } from './server/recorded-request.js';
export type {
  Scenario,
  ScenarioFunction,
  ScriptedError,
  ScriptedResponse,
  ScriptedStreamError,
  ScriptedToolCall,
  ScriptedUsage,
} from './scenario/scripted-response.js';
export {
  errorResponse,
  hangResponse,
  malformedToolCallResponse,
  reasoningResponse,
  textResponse,
  toolCallResponse,
  toolCallsResponse,
} from './scenario/scenario-helpers.js';
export type { ScriptedResponseOptions, ToolCallResponseOptions } from './scenario/scenario-helpers.js';
export { lastUserText, systemPromptOf, toolNamesOf, toolResultsOf } from './scenario/request-inspection.js';
export type { RecordedToolResult } from './scenario/request-inspection.js';
export { createFixtureWorkspace } from './fixtures/create-fixture-workspace.js';
export type { FixtureWorkspace, FixtureWorkspaceOptions } from './fixtures/create-fixture-workspace.js';
export { llmClientContract } from './llm-client-contract.js';
export type { LlmClientContractCase, LlmClientContractSubject } from './llm-client-contract.js';
