/**
 * Name fragments that mark an environment variable as secret-bearing (matched case-insensitively
 * anywhere in the name). Such variables are removed from every child process environment (shell
 * commands, MCP stdio servers) unless the host passes them on purpose.
 */
export const SECRET_ENV_NAME_FRAGMENTS: readonly string[] = Object.freeze(['KEY', 'SECRET', 'TOKEN', 'PASSWORD', 'PASSWD', 'CREDENTIAL']);

/** True when an environment variable name looks secret-bearing (see {@link SECRET_ENV_NAME_FRAGMENTS}). */
export function isSecretEnvName(name: string): boolean {
  const upper = name.toUpperCase();
  return SECRET_ENV_NAME_FRAGMENTS.some((fragment) => upper.includes(fragment));
}

/**
 * The environment of a child process: `base` without secret-bearing variables, plus
 * `GIT_TERMINAL_PROMPT=0` (a credential prompt would hang a headless run), plus `extra`, which
 * the host passes on purpose and is kept as is.
 */
export function buildChildEnvironment(base: Readonly<Record<string, string | undefined>>, extra: Readonly<Record<string, string>> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(base)) {
    if (value === undefined || isSecretEnvName(name)) continue;
    env[name] = value;
  }
  env['GIT_TERMINAL_PROMPT'] = '0';
  for (const [name, value] of Object.entries(extra)) env[name] = value;
  return env;
}
