// @a3s-lab/code-local/internal: building blocks of the local backend (path confinement, process
// runner, git argument checks, ripgrep arguments) for this repository's tests and benchmarks.
// Not a public API: it changes with any release.
export { confinePath, relativeInside, MAX_COMPONENT_BYTES, MAX_PATH_BYTES, MAX_SYMLINK_HOPS } from './confine-path.js';
export type { ConfinedPath } from './confine-path.js';
export { PROTECTED_WRITE_PATTERNS, isProtectedPath } from './protected-paths.js';
export { runProcess, DEFAULT_DRAIN_GRACE_MS, DEFAULT_KILL_GRACE_MS, DEFAULT_MAX_OUTPUT_BYTES } from './process-runner.js';
export type { RunProcessOptions } from './process-runner.js';
export { OutputCapture } from './output-capture.js';
export type { CapturedOutput, OutputStream } from './output-capture.js';
export { buildChildEnv, isSecretEnvName, SECRET_ENV_NAME_FRAGMENTS } from './child-env.js';
export { killAllProcessGroups, liveProcessGroupCount } from './process-registry.js';
export { GIT_ENV, REFUSED_GIT_OPTIONS, validateGitArgs } from './git-args.js';
export { versionToken } from './version-token.js';
export { findRipgrep } from './search/ripgrep-path.js';
export { ripgrepFilesArgs, ripgrepSearchArgs } from './search/ripgrep-engine.js';
export { ProcessSandbox } from './sandbox/process-sandbox.js';
export type { ProcessSpec } from './sandbox/process-sandbox.js';
export { bwrapArgs } from './sandbox/bwrap-args.js';
export type { BwrapPlan, HiddenPath } from './sandbox/bwrap-args.js';
export { BWRAP_PATH_ENV, probeBubblewrap } from './sandbox/sandbox-probe.js';
export type { SandboxProbe } from './sandbox/sandbox-probe.js';
export { resolveSandboxPolicy, parseEndpoint } from './sandbox/sandbox-policy.js';
export type { AllowedEndpoint, SandboxPolicy } from './sandbox/sandbox-policy.js';
