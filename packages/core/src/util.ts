// @a3s-lab/code-core/util: small helpers the workspace backends, tools and adapters of this
// repository share (local, s3, tools, ptc, mcp, web, config): UTF-8 cuts, abort errors, search
// cursors, glob rules, `requireOnce`, process groups, child environments, host names, pattern
// and validator helpers, optional-package loading. Not a stable API for hosts: it changes with
// any minor release. Every export is listed by name; the API report (api/) pins the list.

export { boundUtf8HeadTail, truncateUtf8, utf8Boundary, utf8ByteLength } from './artifacts/utf8.js';
export { abortError, throwIfAborted } from './workspace/abort.js';
export { decodeCursor, encodeCursor } from './workspace/search-cursor.js';
export { anchorGlob, compileGlobRule, escapeGlobLiteral, ruleMatches } from './glob/glob-pattern.js';
export type { GlobRule } from './glob/glob-pattern.js';
export { requireOnce } from './modules/require-once.js';
export { HOST_TERMINATION_SIGNALS, processGroupRegistry, signalProcessGroup } from './process/process-group-registry.js';
export type { HostProcess, ProcessGroupRegistry } from './process/process-group-registry.js';
export { sweepFirstPid, sweepMarkedProcesses, tasksCreatedSinceBoot } from './process/marked-process-sweep.js';
export type { MarkedProcess, ProcessTable, SweepWindow } from './process/marked-process-sweep.js';
export { buildChildEnvironment, isSecretEnvName, SECRET_ENV_NAME_FRAGMENTS } from './security/child-environment.js';
export { normalizeHostName, normalizeHostPattern } from './web/host-name.js';
export { stripSensitiveQueryParams } from './web/sensitive-query-params.js';
export { ucs2length } from './validation/ucs2length.js';
export { describeUnsafePatterns, safeRegExp } from './validation/safe-pattern.js';
export { standaloneValidatorMapSource, standaloneValidatorSource } from './validation/standalone-validator-source.js';
export type { StandaloneValidatorMapSpec, StandaloneValidatorSpec } from './validation/standalone-validator-source.js';
export { assertPackageInstalled, lazyOptionalPackage, missingPackageError } from './errors/optional-package.js';
export type { OptionalPackage } from './errors/optional-package.js';
export { assertNever } from './errors/assert-never.js';
export { declaredErrorKind, isToolErrorKind } from './errors/tool-error-kind.js';
export { execOutputText } from './tools/exec-output-text.js';
