import { buildChildEnvironment } from '@a3s-lab/code-core/util';

// One definition of "secret-bearing" for every child process (bash here, MCP stdio servers in
// @a3s-lab/code-mcp): the names live in core.
export { SECRET_ENV_NAME_FRAGMENTS, isSecretEnvName } from '@a3s-lab/code-core/util';

/**
 * The environment of a child process: `base` (default `process.env`) without secret-bearing
 * variables, plus `GIT_TERMINAL_PROMPT=0` (a credential prompt would hang a headless run), plus
 * `extra`, which the host passes on purpose and is kept as is.
 */
export function buildChildEnv(extra: Readonly<Record<string, string>> = {}, base: NodeJS.ProcessEnv = process.env): Record<string, string> {
  return buildChildEnvironment(base, extra);
}
