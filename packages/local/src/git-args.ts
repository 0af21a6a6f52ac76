import { CodeError } from '@a3s-lab/code-core';

import { GIT_HARDENING_CONFIG, gitConfigEnvironment } from './git-hardening.js';

/**
 * Git options refused anywhere in `args`: they run programs (`--upload-pack`, `--exec`), point
 * git at another repository or work tree, inject configuration, or write/read files outside the
 * workspace (`--output`, `--no-index`).
 */
export const REFUSED_GIT_OPTIONS: readonly string[] = Object.freeze([
  '-c',
  '--config',
  '--config-env',
  '--upload-pack',
  '--receive-pack',
  '--exec',
  '--exec-path',
  '--git-dir',
  '--work-tree',
  '--namespace',
  '--super-prefix',
  '--template',
  '--separate-git-dir',
  '--output',
  '--no-index',
]);

/**
 * Environment every git run gets on top of the child environment: no prompts, no optional
 * locks (a read-only status must not fight the user's editor for index.lock), no pager, C locale
 * so output parsing in the tools package is stable; {@link GIT_HARDENING_CONFIG} at command-line
 * scope (no fsmonitor, hooks, pager, credential helper, transport...). `safe.bareRepository=explicit` (command-line
 * scope, which repository config cannot override) stops git from treating the workspace root
 * itself as a bare repository: its `config` and `hooks/` would be ordinary, writable files.
 */
export const GIT_ENV: Readonly<Record<string, string>> = Object.freeze({
  GIT_TERMINAL_PROMPT: '0',
  GIT_OPTIONAL_LOCKS: '0',
  GIT_PAGER: 'cat',
  PAGER: 'cat',
  LC_ALL: 'C',
  GIT_CONFIG_NOSYSTEM: '1',
  ...gitConfigEnvironment(gitCommandLineConfig(false)),
});

/**
 * The command-line-scope configuration of a git run: `safe.bareRepository=explicit` always, and
 * unless `trustRepository`, {@link GIT_HARDENING_CONFIG} (no repository-provided programs).
 */
export function gitCommandLineConfig(trustRepository: boolean): Array<readonly [string, string]> {
  return [['safe.bareRepository', 'explicit'], ...(trustRepository ? [] : GIT_HARDENING_CONFIG)];
}

/**
 * Validates git arguments: the first one must be the subcommand (no global options, which is
 * where `-c`/`-C`/`--git-dir` live), no element may contain a NUL byte, and none of
 * {@link REFUSED_GIT_OPTIONS} may appear (as `--opt`, `--opt=value` or a glued short form) before
 * a `--` separator. Global-only options such as `-C <dir>` and `-p` are covered by the first
 * rule; after the subcommand they mean copy detection and `--patch`, which are harmless.
 *
 * @throws CodeError `SECURITY_ERROR` with `details.arg`.
 */
export function validateGitArgs(args: readonly string[]): void {
  if (args.length === 0) throw new CodeError('TOOL_ERROR', 'git needs a subcommand', { details: { errorKind: { type: 'invalid_argument', message: 'git needs a subcommand' } } });
  const first = args[0] as string;
  if (first.startsWith('-')) {
    throw new CodeError('SECURITY_ERROR', 'git global options are not accepted; the subcommand must come first', { details: { arg: first, reason: 'git_global_option' } });
  }
  let afterSeparator = false;
  for (const arg of args) {
    if (arg.includes('\0')) throw new CodeError('SECURITY_ERROR', 'git argument contains a NUL byte', { details: { arg: arg.replaceAll('\0', '\\0'), reason: 'nul_byte' } });
    if (afterSeparator) continue;
    if (arg === '--') {
      // Everything after `--` is a pathspec, never an option.
      afterSeparator = true;
      continue;
    }
    if (!arg.startsWith('-')) continue;
    const name = arg.includes('=') ? arg.slice(0, arg.indexOf('=')) : arg;
    const refused = REFUSED_GIT_OPTIONS.some((option) => {
      // git accepts any unambiguous prefix of a long option (`--upload-p=...`), so prefixes count.
      if (option.startsWith('--')) return name.length > 2 && option.startsWith(name);
      // Short options may be glued to their value: `-cfoo=bar`, `-C/tmp`.
      return arg === option || (arg.startsWith(option) && !arg.startsWith('--'));
    });
    if (refused) {
      throw new CodeError('SECURITY_ERROR', `git option ${name} is not accepted`, { details: { arg: name, reason: 'git_refused_option' } });
    }
  }
}
