/**
 * Name fragments that mark an environment variable as secret-bearing (matched case-insensitively
 * anywhere in the name). Such variables are removed from every child environment unless the host
 * passes them on purpose through `env`.
 */
export const SECRET_ENV_NAME_FRAGMENTS: readonly string[] = Object.freeze(['KEY', 'SECRET', 'TOKEN', 'PASSWORD', 'PASSWD', 'CREDENTIAL']);

/** True when an environment variable name looks secret-bearing (see {@link SECRET_ENV_NAME_FRAGMENTS}). */
export function isSecretEnvName(name: string): boolean {
  const upper = name.toUpperCase();
  return SECRET_ENV_NAME_FRAGMENTS.some((fragment) => upper.includes(fragment));
}

/**
 * The environment of a child process: `base` (default `process.env`) without secret-bearing
 * variables, plus `GIT_TERMINAL_PROMPT=0` (a credential prompt would hang a headless run), plus
 * `extra`, which the host passes on purpose and is kept as is.
 */
export function buildChildEnv(extra: Readonly<Record<string, string>> = {}, base: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(base)) {
    if (value === undefined || isSecretEnvName(name)) continue;
    env[name] = value;
  }
  env['GIT_TERMINAL_PROMPT'] = '0';
  for (const [name, value] of Object.entries(extra)) env[name] = value;
  return env;
}
