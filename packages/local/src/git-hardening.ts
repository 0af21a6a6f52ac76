import { CodeError } from '@a3s-lab/code-core';

/**
 * Configuration every git run gets at command-line scope (which repository config cannot
 * override), so the repository cannot make a "read-only" git call run its own programs:
 * no fsmonitor, no hooks, no pager, no editor, no credential helper, no transport at all (which
 * rules out `core.sshCommand`, `remote.*.uploadpack` and `ext::` remotes), no signature
 * verification programs, no automatic gc/maintenance, submodules not recursed into (their
 * own config would apply there).
 */
export const GIT_HARDENING_CONFIG: ReadonlyArray<readonly [string, string]> = Object.freeze([
  ['core.fsmonitor', 'false'],
  ['core.hooksPath', '/dev/null'],
  ['core.pager', 'cat'],
  ['core.editor', ':'],
  ['sequence.editor', ':'],
  ['credential.helper', ''],
  ['protocol.allow', 'never'],
  ['log.showSignature', 'false'],
  ['gc.auto', '0'],
  ['maintenance.auto', 'false'],
  ['diff.ignoreSubmodules', 'all'],
  ['status.submoduleSummary', 'false'],
] as const);

/**
 * Repository-scoped keys that run a program and that no command-line value can switch off
 * (an empty `diff.external` or `diff.<driver>.command` is itself run and fails), or that point
 * git at files and programs elsewhere. Their presence refuses the git call unless the host opts
 * in. Matched on the lower-cased `section.variable` with `*` for a subsection.
 */
export const REFUSED_REPOSITORY_GIT_KEYS: readonly string[] = Object.freeze([
  'diff.external',
  'diff.*.command',
  'core.worktree',
  'core.sshcommand',
  'core.gitproxy',
  'core.askpass',
  'core.alternaterefscommand',
  'gpg.program',
  'gpg.*.program',
  'gpg.ssh.defaultkeycommand',
  'remote.*.uploadpack',
  'remote.*.receivepack',
  'uploadpack.packobjectshook',
  'include.path',
  'includeif.*.path',
]);

/** Per-driver keys that a command-line value does switch off: `[pattern, harmless value]`. */
const NEUTRALISED: ReadonlyArray<readonly [RegExp, string]> = [
  [/^filter\.(.+)\.(clean|smudge|process)$/i, ''],
  [/^diff\.(.+)\.textconv$/i, 'cat'],
  [/^merge\.(.+)\.driver$/i, 'false'],
];

/** `section.sub.section.variable` -> [section, subsection | null, variable]. */
function splitKey(key: string): [string, string | null, string] {
  const first = key.indexOf('.');
  const last = key.lastIndexOf('.');
  if (first === -1) return [key.toLowerCase(), null, ''];
  if (first === last) return [key.slice(0, first).toLowerCase(), null, key.slice(first + 1).toLowerCase()];
  return [key.slice(0, first).toLowerCase(), key.slice(first + 1, last), key.slice(last + 1).toLowerCase()];
}

function isRefused(key: string): boolean {
  const [section, subsection, variable] = splitKey(key);
  return REFUSED_REPOSITORY_GIT_KEYS.some((pattern) => {
    const [ps, psub, pv] = splitKey(pattern);
    if (ps !== section || pv !== variable) return false;
    return psub === null ? subsection === null : psub === '*' ? subsection !== null : psub.toLowerCase() === subsection?.toLowerCase();
  });
}

/**
 * Reads `git config --list -z` output of the repository's own configuration (local scope with
 * its includes) and returns the command-line overrides that disarm its per-driver programs
 * (filters, textconv, merge drivers).
 *
 * @throws CodeError SECURITY_ERROR (`details.reason: 'git_repository_executable'`, `details.key`)
 *   when it sets a key of {@link REFUSED_REPOSITORY_GIT_KEYS}.
 */
export function repositoryConfigOverrides(listOutput: string): Array<readonly [string, string]> {
  const overrides: Array<readonly [string, string]> = [];
  for (const entry of listOutput.split('\0')) {
    if (entry.length === 0) continue;
    const newline = entry.indexOf('\n');
    const key = newline === -1 ? entry : entry.slice(0, newline);
    if (isRefused(key)) {
      throw new CodeError('SECURITY_ERROR', `the repository's git config sets ${key}, which runs a program or points git elsewhere; git was not run (the host can allow repository git config)`, {
        details: { reason: 'git_repository_executable', key },
      });
    }
    for (const [pattern, value] of NEUTRALISED) {
      if (pattern.test(key)) overrides.push([key, value]);
    }
  }
  return overrides;
}

/** `GIT_CONFIG_COUNT` / `GIT_CONFIG_KEY_n` / `GIT_CONFIG_VALUE_n` for `entries` (command-line scope). */
export function gitConfigEnvironment(entries: ReadonlyArray<readonly [string, string]>): Record<string, string> {
  const env: Record<string, string> = { GIT_CONFIG_COUNT: String(entries.length) };
  entries.forEach(([key, value], index) => {
    env[`GIT_CONFIG_KEY_${index}`] = key;
    env[`GIT_CONFIG_VALUE_${index}`] = value;
  });
  return env;
}
