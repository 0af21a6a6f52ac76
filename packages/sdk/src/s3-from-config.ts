import type { AgentConfig } from '@a3s-lab/code-config';
import { CodeError, MemorySessionStore } from '@a3s-lab/code-core';
import type { SessionStore } from '@a3s-lab/code-core';
import { FileSessionStore } from '@a3s-lab/code-local';

import { PostgresSessionStore } from './postgres-session-store.js';
import { S3SessionStore } from './s3-session-store.js';
import { S3WorkspaceBackend } from './s3-workspace-backend.js';

/** Default key prefix of session documents with `storage_backend = "s3"`. */
export const DEFAULT_S3_SESSIONS_PREFIX = 'sessions';

/** The store of the config's `storage_backend`: memory (default), `file` under `sessions_dir`, `s3` per its `s3 { }` block, or `postgres` per its `postgres { url }` block. */
export function configuredSessionStore(config: AgentConfig): SessionStore {
  if (config.storageBackend === 'file') return new FileSessionStore(config.sessionsDir);
  if (config.storageBackend === 's3') {
    const s3 = config.s3;
    if (s3?.bucket === undefined) throw new CodeError('CONFIG_ERROR', 'storage_backend = "s3" needs an s3 { bucket = "..." } block', { details: { field: 's3.bucket' } });
    return new S3SessionStore({ ...connectionOf(s3), bucket: s3.bucket, prefix: s3.prefix ?? DEFAULT_S3_SESSIONS_PREFIX });
  }
  if (config.storageBackend === 'postgres') {
    const url = config.postgres?.url;
    if (url === undefined) throw new CodeError('CONFIG_ERROR', 'storage_backend = "postgres" needs a postgres { url = env("DATABASE_URL") } block', { details: { field: 'postgres.url' } });
    return new PostgresSessionStore({ connectionString: url });
  }
  return new MemorySessionStore('memory:agent');
}

/**
 * The backend of an `s3://bucket/prefix` workspace opened without a `workspaceBackend`: the
 * config's `s3 { }` connection with the URL's bucket and prefix.
 *
 * @throws CodeError SESSION_CONFIGURATION_ERROR when the config has no `s3` block or the URL has no bucket.
 */
export function s3WorkspaceFromConfig(config: AgentConfig, workspace: string): S3WorkspaceBackend {
  const match = /^s3:\/\/([^/]+)(?:\/(.*))?$/.exec(workspace);
  if (match === null) throw new CodeError('SESSION_CONFIGURATION_ERROR', `workspace '${workspace}' is not an s3://bucket/prefix URL`, { details: { field: 'workspace' } });
  if (config.s3 === undefined) {
    throw new CodeError('SESSION_CONFIGURATION_ERROR', `workspace '${workspace}' is on S3: add an s3 { region = "..." } block with its connection to the config, or pass a workspaceBackend`, { details: { field: 'workspaceBackend' } });
  }
  return new S3WorkspaceBackend({ ...connectionOf(config.s3), bucket: match[1] ?? '', prefix: match[2] ?? '' });
}

/** The credential values of the config's `s3 { }` block. */
export function s3ConfigCredentials(config: AgentConfig): string[] {
  const s3 = config.s3;
  return s3 === undefined ? [] : [s3.secretAccessKey, s3.sessionToken, s3.accessKeyId].filter((value): value is string => value !== undefined && value.length > 0);
}

function connectionOf(s3: NonNullable<AgentConfig['s3']>) {
  return {
    region: s3.region,
    ...(s3.endpoint === undefined ? {} : { endpoint: s3.endpoint }),
    ...(s3.accessKeyId === undefined ? {} : { accessKeyId: s3.accessKeyId }),
    ...(s3.secretAccessKey === undefined ? {} : { secretAccessKey: s3.secretAccessKey }),
    ...(s3.sessionToken === undefined ? {} : { sessionToken: s3.sessionToken }),
    ...(s3.forcePathStyle === undefined ? {} : { forcePathStyle: s3.forcePathStyle }),
  };
}
