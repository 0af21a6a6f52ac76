import type { AgentConfig } from '@a3s-lab/code-config';
import { DefaultSecurityProvider } from '@a3s-lab/code-core';
import type { SecurityProvider, SessionStore, WorkspaceBackend } from '@a3s-lab/code-core';
import { postgresConfigCredentials } from './postgres-from-config.js';
import { s3ConfigCredentials } from './s3-from-config.js';
import { s3CredentialValues } from './s3-workspace-backend.js';
import { secretEnvironmentValues } from './secret-environment.js';

/**
 * The redaction of a top-level session's output: the secrets of `env`, the API keys written
 * literally in the config, and the S3 / Postgres credentials of the config, the session's
 * `backend` and its `store` are never shown.
 */
export function sessionSecurity(config: AgentConfig, env: Readonly<Record<string, string | undefined>>, backend: WorkspaceBackend, store: SessionStore): SecurityProvider {
  // Keys written literally in the config are secrets too, like those from the environment.
  const configKeys = config.providers.flatMap((p) => (typeof p.apiKey === 'string' && p.apiKey.length >= 8 ? [p.apiKey] : []));
  // S3 credentials (of the config, the backend and the store) are never shown either.
  const s3Keys = [...s3ConfigCredentials(config), ...postgresConfigCredentials(config), ...s3CredentialValues(backend), ...s3CredentialValues(store)];
  return new DefaultSecurityProvider({ secretValues: [...secretEnvironmentValues(env), ...configKeys, ...s3Keys] });
}
