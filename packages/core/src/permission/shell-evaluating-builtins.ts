import { describeSource } from './shell-issue.js';
import type { ShellIssue } from './shell-issue.js';

/**
 * Builtins whose every argument may be evaluated as arithmetic or set attributes that make a
 * later assignment arithmetic (`declare -i x`): bash then expands `a[$(cmd)]` subscripts and
 * runs the command substitution, even when the word was single-quoted.
 */
const ALWAYS_EVALUATING: ReadonlySet<string> = new Set(['let', 'declare', 'typeset', 'local']);

/**
 * Builtins that take variable NAMES (`printf -v NAME`, `read NAME`, `test -v NAME`, `unset
 * NAME`...): a name with a subscript `a[...]` is evaluated as arithmetic, which runs `$(...)`
 * found in it. Any argument of theirs with a `[` is therefore not provably simple.
 */
const NAME_TAKING: ReadonlySet<string> = new Set([
  'printf',
  'read',
  'test',
  '[',
  'unset',
  'export',
  'readonly',
  'mapfile',
  'readarray',
  'getopts',
  'wait',
  'shift',
  'return',
  'exit',
  'break',
  'continue',
]);

/** `mapfile -C callback` / `readarray -C` run a command per chunk of lines. */
const CALLBACK_OPTION: ReadonlySet<string> = new Set(['mapfile', 'readarray']);

/**
 * The issue of a command whose arguments bash may evaluate as arithmetic (and so run `$(...)`
 * hidden in a quoted `a[$(cmd)]`), or `null` when it has none. The command name is matched by
 * basename, case-insensitively; the check fails closed (any subscript-like argument counts).
 */
export function arithmeticEvaluationIssue(words: readonly string[]): ShellIssue | null {
  const first = words[0];
  if (first === undefined || words.length < 2) return null;
  const name = first.slice(first.lastIndexOf('/') + 1).toLowerCase();
  const args = words.slice(1);
  if (ALWAYS_EVALUATING.has(name)) {
    return { kind: 'arithmetic_evaluation', detail: `\`${name}\` evaluating its arguments (\`${describeSource(args.join(' '))}\`)` };
  }
  if (CALLBACK_OPTION.has(name) && args.some((word) => /^-[A-Za-z]*C/.test(word))) {
    return { kind: 'arithmetic_evaluation', detail: `\`${name} -C\` running a callback command` };
  }
  if (!NAME_TAKING.has(name)) return null;
  const subscripted = args.find((word) => word.includes('['));
  if (subscripted === undefined) return null;
  return { kind: 'arithmetic_evaluation', detail: `\`${name}\` argument \`${describeSource(subscripted)}\` evaluated as an arithmetic subscript` };
}
