import { loadAgentDocument, mergeAclDocuments, toAgentConfig } from '@a3s-lab/code-config';
import type { AgentConfig, LoadedAclDocument } from '@a3s-lab/code-config';
import { mergePermissionPolicies, validatePermissionPolicy } from '@a3s-lab/code-core/kernel';
import type { PermissionPolicy } from '@a3s-lab/code-core';
import { strictestSandbox } from './session-sandbox.js';

/** The configuration of an agent directory's agent, from the host's and the directory's `agent.acl`. */
export interface DirectoryAgentConfig {
  readonly config: AgentConfig;
  /** The host's document with the directory's merged over it. */
  readonly document: LoadedAclDocument;
  /** The host's permission policy, a ceiling every session of the directory also obeys (null when it has none or it is off). */
  readonly ceiling: PermissionPolicy | null;
}

/**
 * Merges the directory's `aclFile` over the host's configuration (`host`, loaded from
 * `document`). Loading never widens authority: the directory's permission block merges
 * strictest-wins over the host's (deny and ask lists union, the stricter default), and the
 * host's policy stays a ceiling; nor can it loosen the OS sandbox (strictest-wins too).
 */
export function directoryAgentConfig(host: AgentConfig, document: LoadedAclDocument, aclFile: string, env: Readonly<Record<string, string | undefined>> | undefined): DirectoryAgentConfig {
  const overlay = loadAgentDocument(aclFile, env === undefined ? {} : { env });
  const merged = mergeAclDocuments(document.document, overlay.document);
  const loaded = toAgentConfig(merged, { baseDir: document.baseDir, ...(document.configFile === undefined ? {} : { configFile: document.configFile }) });
  const hostPolicy = host.permissionPolicy;
  const permissionPolicy = mergePermissionPolicies(hostPolicy, loaded.permissionPolicy);
  const sandbox = strictestSandbox(host.sandbox, loaded.sandbox);
  return {
    config: { ...loaded, ...(permissionPolicy === undefined ? {} : { permissionPolicy }), ...(sandbox === undefined ? {} : { sandbox }) },
    document: { ...document, document: merged },
    ceiling: hostPolicy === undefined || hostPolicy.enabled === false ? null : validatePermissionPolicy(withoutEnabled(hostPolicy)),
  };
}

/** A permission block without its `enabled` switch (a policy of rules). */
function withoutEnabled(block: NonNullable<AgentConfig['permissionPolicy']>): PermissionPolicy {
  const { enabled: _enabled, ...rules } = block;
  return rules;
}
