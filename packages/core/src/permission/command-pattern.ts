/** A compiled command pattern, the specifier of a rule like `bash(git log*)`. */
export interface CommandPattern {
  /** The pattern as written (whitespace collapsed). */
  readonly source: string;
  /** True when `words` (one sub-command's argv after quote removal) matches. */
  matches(words: readonly string[]): boolean;
}

type WordMatcher = (word: string) => boolean;

/**
 * Compiles a command pattern. The pattern is split into words on whitespace and matched word by
 * word against a sub-command's argv (the same as matching the words joined by single spaces,
 * except that a quoted argument containing a space stays one word and cannot fake a prefix):
 * - `git status` matches exactly those words;
 * - a trailing ` *` means "followed by any arguments, or none": `echo *` matches `echo` and
 *   `echo a b`;
 * - a `*` glued to the end of the last word is a WORD-BOUNDARY prefix: `git log*` matches
 *   `git log` and `git log --oneline` but not `git logout`;
 * - any other `*` matches any characters within one word: `npm run test:*`, `cat *.md`.
 */
export function compileCommandPattern(pattern: string): CommandPattern {
  const words = pattern.trim().split(/\s+/).filter((word) => word.length > 0);
  let anyTail = false;
  const last = words.at(-1);
  if (last !== undefined && last.endsWith('*')) {
    anyTail = true;
    const stem = last.replace(/\*+$/, '');
    if (stem.length === 0) words.pop();
    else words[words.length - 1] = stem;
  }
  const matchers = words.map(compileWord);
  return {
    source: pattern.trim().split(/\s+/).join(' '),
    matches(argv: readonly string[]): boolean {
      if (anyTail ? argv.length < matchers.length : argv.length !== matchers.length) return false;
      return matchers.every((matcher, index) => matcher(argv[index] as string));
    },
  };
}

function compileWord(word: string): WordMatcher {
  if (!word.includes('*')) return (candidate) => candidate === word;
  return (candidate) => wildcardMatch(word, candidate);
}

/**
 * `*`-only wildcard match in O(pattern x text) time: the classic two-pointer walk that
 * backtracks only to the last star, so a hostile argument cannot trigger regex blow-up.
 */
export function wildcardMatch(pattern: string, text: string): boolean {
  let p = 0;
  let t = 0;
  let star = -1;
  let resume = 0;
  while (t < text.length) {
    if (p < pattern.length && pattern[p] !== '*' && pattern[p] === text[t]) {
      p += 1;
      t += 1;
    } else if (p < pattern.length && pattern[p] === '*') {
      star = p;
      resume = t;
      p += 1;
    } else if (star !== -1) {
      p = star + 1;
      resume += 1;
      t = resume;
    } else return false;
  }
  while (p < pattern.length && pattern[p] === '*') p += 1;
  return p === pattern.length;
}
