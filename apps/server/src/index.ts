// Public surface of @a3s-lab/server. Exports are listed by name; index.test.ts pins them.
export { startServer, allowedHostValues, wildcardHostNames } from './start-server.js';
export type { RunningServer } from './start-server.js';
export {
  DEFAULT_CONFIRMATION_POLICY,
  DEFAULT_HOST,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_PERMISSION_POLICY,
  resolveServerOptions,
} from './server-options.js';
export type { ResolvedServerOptions, ServerOptions } from './server-options.js';
export { createServerApp } from './create-server-app.js';
export type { ServerAppOptions } from './create-server-app.js';
export type { RequestGuardOptions } from './request-guard.js';
export { SessionHost } from './session-host.js';
export { FLEET_ROLES, startFleetServer } from './fleet-host/start-fleet-server.js';
export type { FleetRole, FleetServerOptions, RunningFleetServer } from './fleet-host/start-fleet-server.js';
export { FleetHost } from './fleet-host/fleet-host.js';
export type { FleetHostOptions } from './fleet-host/fleet-host.js';
export type { FleetRunRecord } from './fleet-host/fleet-run-record.js';
export type { PendingConfirmation, SessionHandle, SessionHostOptions } from './session-host.js';
export { DEFAULT_LEASE_TTL_MS, FileSessionLeases } from './session-lease.js';
export type { FileSessionLeasesOptions, LeaseAttempt, LeaseRecord, SessionLeases } from './session-lease.js';
export { followRunEvents } from './follow-run-events.js';
export type { FollowedRunBatch } from './follow-run-events.js';
export { formatSseMessage } from './format-sse-message.js';
export { readSseEvents } from './read-sse-events.js';
export type { SseMessage } from './read-sse-events.js';
export { MIN_TOKEN_LENGTH, SERVER_TOKEN_ENV, resolveServerToken } from './server-token.js';
export type { ServerToken } from './server-token.js';
export { SERVER_ERROR_CODES, ServerError } from './server-error.js';
export type { ErrorBody, ServerErrorCode } from './server-error.js';
