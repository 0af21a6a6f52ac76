// Public surface of @a3s-lab/code-s3. Every export is listed by name.
export { S3WorkspaceBackend, S3_WORKSPACE_DEFAULTS } from './s3-workspace-backend.js';
export { S3_CONNECTION_DEFAULTS } from './s3-connection.js';
export { S3SessionStore } from './s3-session-store.js';
export type { S3SessionStoreOptions } from './s3-session-store.js';
export { S3SessionLeases, DEFAULT_S3_LEASE_TTL_MS } from './s3-session-leases.js';
export type { S3SessionLeasesOptions } from './s3-session-leases.js';
// The plain-data option and lease types (@a3s-lab/code declares its own copies, kept assignable by a typecheck).
export type { S3ConnectionOptions } from './s3-connection-options.js';
export type { S3LeaseAttempt } from './s3-lease-attempt.js';
export type { S3LeaseRecord } from './s3-lease-record.js';
export type { S3WorkspaceBackendOptions } from './s3-workspace-backend-options.js';
