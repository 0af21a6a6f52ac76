// Public surface of @a3s-lab/code-config. Exports are listed by name.

export { parseAcl, MAX_ACL_NESTING_DEPTH } from './parse-acl.js';
export type { ParseAclOptions } from './parse-acl.js';
export type { AclAttribute, AclBlock, AclBody, AclDocument, AclObject, AclValue, AclWarning } from './acl-document.js';
export type { AclPosition } from './acl-syntax-error.js';

export { isInlineAcl, loadAgentConfig, toAgentConfig } from './load-agent-config.js';
export type { LoadAgentConfigOptions, ToAgentConfigOptions } from './load-agent-config.js';
export { agentConfigJsonSchema } from './agent-config-schema.js';
export type { AgentConfigIssue } from './validate-agent-config.js';
export type {
  AgentConfig,
  AgentSessionDefaults,
  ConfirmationPolicyConfig,
  McpServerEntryConfig,
  ModelConfig,
  ModelLimitConfig,
  PermissionPolicyConfig,
  PostgresStorageConfig,
  ProviderConfig,
  ProviderKind,
  SearchEngineConfig,
  SearchEngineKind,
  WebFetchConfig,
  S3StorageConfig,
  WebSearchConfig,
  WorkerAgentConfig,
} from './agent-config.js';
export { resolveModel } from './resolve-model.js';
export type { ResolvedModel, ResolveModelOptions } from './resolve-model.js';
export { loadAgentDocument } from './load-agent-config.js';
export type { LoadedAclDocument } from './load-agent-config.js';
export { mergeAclDocuments } from './merge-acl-documents.js';
export { loadAgentDirectory, parseFrontmatter, parseSkill } from './agent-directory.js';
export type { AgentDirectory, AgentMcpTool, AgentSchedule, AgentScriptTool, AgentSkillFile } from './agent-directory.js';
