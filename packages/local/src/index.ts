// Public surface of @a3s-lab/code-local: the local workspace backend and its options, and the
// file session store. Internals the repository's own tests and benchmarks use live in
// `./internal` (not a public API). Exports are listed by name; the API report pins them.
export { LocalWorkspaceBackend, DEFAULT_GIT_TIMEOUT_MS } from './local-workspace-backend.js';
export type { LocalWorkspaceBackendOptions } from './local-workspace-backend.js';
export type { SearchResultCacheOptions } from './search/search-result-cache.js';
export type { PathRefusalReason } from './security-error.js';
export type { LocalSandboxOptions } from './sandbox/process-sandbox.js';
export { DEFAULT_SANDBOX_DENY_READ } from './sandbox/sandbox-policy.js';
export { sandboxedCommand } from './sandbox/standalone-sandbox.js';
export type { StandaloneCommand, StandaloneSandboxOptions } from './sandbox/standalone-sandbox.js';
export { FileSessionStore } from './file-session-store.js';
export type { FileSessionStoreOptions } from './file-session-store.js';
