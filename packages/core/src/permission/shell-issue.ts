/**
 * Why a shell command string is not provably simple. A command with any issue is never
 * auto-allowed by an allow rule with a specifier: at best it is asked about.
 */
export type ShellIssueKind =
  /** Unterminated quote, trailing backslash, stray `)`, dangling `&&`... */
  | 'parse_error'
  /** Zero-width or bidi characters, NBSP, NUL, CR and other control or format characters. */
  | 'unusual_character'
  /** `$( )` or backticks, in any position (inside double quotes and words too). */
  | 'command_substitution'
  /** `<( )` or `>( )`. */
  | 'process_substitution'
  /** `$VAR`, `${...}`, `$1`, `$@`, locale strings `$"..."`. */
  | 'parameter_expansion'
  /** `$(( ))` and `$[ ]`. */
  | 'arithmetic_expansion'
  /**
   * A builtin that evaluates arguments as arithmetic (`let`, `declare`, `printf -v 'a[...]'`,
   * `test -v`, `read 'a[...]'`...): bash runs `$(...)` inside a subscript even when quoted.
   */
  | 'arithmetic_evaluation'
  /** Unquoted `*`, `?` or `[...]`: the argv depends on the files present. */
  | 'pathname_expansion'
  /** Unquoted `{a,b}` or `{1..3}`. */
  | 'brace_expansion'
  /** Unquoted `~` at the start of a word. */
  | 'tilde_expansion'
  /** `>`, `>>`, `<`, `2>`, `&>`, `>&`, here-documents and here-strings. */
  | 'redirection'
  /** `NAME=value` before a command (`GIT_PAGER=sh git log`). */
  | 'env_assignment'
  /** `( ... )` or a function definition. */
  | 'subshell'
  /** `{ ...; }`. */
  | 'group'
  /** `if`, `for`, `while`, `case`, `function`, `[[`, `!`... */
  | 'control_structure'
  /** A command that runs its arguments: `bash -c`, `eval`, `sudo`, `env`, `xargs`, `find -exec`... */
  | 'wrapper_command'
  /** Substitutions or wrappers nested deeper than {@link MAX_SHELL_NESTING_DEPTH}. */
  | 'nesting_limit';

/** One reason why a command is not provably simple. */
export interface ShellIssue {
  readonly kind: ShellIssueKind;
  /** Human description of the construct, e.g. "command substitution `$(id)`". */
  readonly detail: string;
}

/**
 * How deep substitutions, `${...}` and wrapper scripts (`bash -c "eval '...'"`) may nest before
 * the analysis stops with a `nesting_limit` issue. Real commands stay far below it; the bound
 * keeps hostile input from exhausting the stack.
 */
export const MAX_SHELL_NESTING_DEPTH = 16;

const SNIPPET_LIMIT = 48;

/**
 * Source text made safe to quote in a reason: control and invisible characters are shown as
 * `\u{...}` escapes (a reason must not itself hide what it warns about) and long text is cut.
 */
export function describeSource(text: string): string {
  let out = '';
  for (const char of text) {
    const codePoint = char.codePointAt(0) ?? 0;
    if (char === '\n') out += '\\n';
    else if (char === '\t') out += '\\t';
    else if (char !== ' ' && isUnusualCharacter(codePoint)) out += `\\u{${codePoint.toString(16).toUpperCase()}}`;
    else out += char;
    if (out.length > SNIPPET_LIMIT) return `${out.slice(0, SNIPPET_LIMIT)}…`;
  }
  return out;
}

// Invisible, formatting, private-use, unassigned and non-ASCII space characters: they make what a
// reviewer sees differ from what the shell runs (Trojan Source, NBSP between words, ...).
const UNUSUAL_CHARACTER =
  /[\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Cs}\p{Zl}\p{Zp}\p{Zs}\p{Default_Ignorable_Code_Point}\u115F\u1160\u3164\uFFA0]/u;

/**
 * True for a code point that has no business in a command a human approves: every control
 * character except tab and line feed (so NUL and CR count), format characters (zero-width,
 * bidi overrides), spaces other than U+0020 (NBSP...), default-ignorable and unassigned ones.
 */
export function isUnusualCharacter(codePoint: number): boolean {
  if (codePoint === 0x09 || codePoint === 0x0a || codePoint === 0x20) return false;
  if (codePoint > 0x20 && codePoint < 0x7f) return false;
  return UNUSUAL_CHARACTER.test(String.fromCodePoint(codePoint));
}

/** The first unusual character of `text` (see {@link isUnusualCharacter}) as `U+XXXX`, or null. */
export function findUnusualCharacter(text: string): string | null {
  for (const char of text) {
    const codePoint = char.codePointAt(0) ?? 0;
    if (isUnusualCharacter(codePoint)) return `U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}`;
  }
  return null;
}
