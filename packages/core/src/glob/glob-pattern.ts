/** One compiled gitignore-style line (the syntax of `.gitignore` files and ripgrep's `--glob`). */
export interface GlobRule {
  /** Tested against a path relative to the rule's base directory (POSIX, no leading `./`). */
  readonly regex: RegExp;
  /** The line started with `!`. */
  readonly negated: boolean;
  /** The line ended with `/`: matches directories only. */
  readonly directoryOnly: boolean;
}

/**
 * Compiles one gitignore-style line with the semantics of ripgrep's `ignore` crate: `#` comments
 * and blank lines give `null`; `!` negates; a leading `/` or any inner `/` anchors the pattern to
 * its base directory, otherwise it matches at any depth; a trailing `/` matches directories only;
 * `*` and `?` never match `/`; `**` as a whole component crosses directories (`a/**` matches only
 * inside `a`); `[...]`, `{a,b}` and backslash escapes are supported.
 */
export function compileGlobRule(line: string, options: { readonly caseInsensitive?: boolean } = {}): GlobRule | null {
  let text = line;
  if (text.startsWith('#')) return null;
  text = trimTrailingSpaces(text);
  if (text === '') return null;
  let negated = false;
  if (text.startsWith('!')) {
    negated = true;
    text = text.slice(1);
  } else if (text.startsWith('\\!') || text.startsWith('\\#')) {
    text = text.slice(1);
  }
  let directoryOnly = false;
  if (text.endsWith('/') && !text.endsWith('\\/')) {
    directoryOnly = true;
    text = text.slice(0, -1);
  }
  let anchored = false;
  if (text.startsWith('/')) {
    anchored = true;
    text = text.slice(1);
  }
  if (text === '') return null;
  if (!anchored && !text.includes('/')) text = `**/${text}`;
  // `a/**` matches everything inside a, not a itself.
  if (text.endsWith('/**')) text = `${text}/*`;
  const source = translate(text);
  return { regex: new RegExp(`^${source}$`, options.caseInsensitive === true ? 'is' : 's'), negated, directoryOnly };
}

/** True when `rule` matches `path` (relative to the rule's base) of the given kind. */
export function ruleMatches(rule: GlobRule, path: string, isDirectory: boolean): boolean {
  if (rule.directoryOnly && !isDirectory) return false;
  return rule.regex.test(path);
}

/**
 * Escapes glob metacharacters in a literal path so it can prefix a pattern (`[ab]` as a directory
 * name must stay literal).
 */
export function escapeGlobLiteral(path: string): string {
  return path.replace(/[*?[\]{}\\!]/g, '\\$&');
}

/**
 * Rewrites a glob written relative to `directory` (workspace-relative, `.` = root) so it can be
 * matched relative to the workspace root: patterns with an inner `/` are anchored and get the
 * escaped directory as prefix; basename patterns match at any depth already.
 */
export function anchorGlob(directory: string, pattern: string): string {
  const negated = pattern.startsWith('!');
  let body = negated ? pattern.slice(1) : pattern;
  const trailing = body.endsWith('/') ? '/' : '';
  const core = trailing === '' ? body : body.slice(0, -1);
  const anchored = core.startsWith('/') || core.includes('/');
  if (directory !== '.' && anchored) {
    body = `/${escapeGlobLiteral(directory)}/${core.replace(/^\/+/, '')}${trailing}`;
  }
  return `${negated ? '!' : ''}${body}`;
}

function trimTrailingSpaces(text: string): string {
  let end = text.length;
  while (end > 0 && text[end - 1] === ' ' && text[end - 2] !== '\\') end -= 1;
  return text.slice(0, end);
}

function translate(glob: string): string {
  let out = '';
  let index = 0;
  let braceDepth = 0;
  while (index < glob.length) {
    const char = glob[index] as string;
    const atComponentStart = index === 0 || glob[index - 1] === '/';
    if (char === '*' && glob[index + 1] === '*' && atComponentStart && (index + 2 === glob.length || glob[index + 2] === '/')) {
      if (index + 2 === glob.length) {
        out += '.*';
        index += 2;
      } else {
        // `**/` : zero or more whole directories.
        out += '(?:[^/]*/)*';
        index += 3;
      }
      continue;
    }
    if (char === '*') {
      while (glob[index + 1] === '*') index += 1;
      out += '[^/]*';
    } else if (char === '?') {
      out += '[^/]';
    } else if (char === '\\' && index + 1 < glob.length) {
      index += 1;
      out += escapeRegex(glob[index] as string);
    } else if (char === '[') {
      const end = classEnd(glob, index);
      if (end === -1) {
        out += '\\[';
      } else {
        let body = glob.slice(index + 1, end);
        let negate = false;
        if (body.startsWith('!') || body.startsWith('^')) {
          negate = true;
          body = body.slice(1);
        }
        // A `]` right after the opening bracket is literal; `\\` and `^` are escaped for RegExp.
        const escaped = body.replace(/[\\^[]/g, '\\$&');
        out += `[${negate ? '^' : ''}${escaped.startsWith(']') ? `\\${escaped}` : escaped}]`;
        index = end;
      }
    } else if (char === '{') {
      braceDepth += 1;
      out += '(?:';
    } else if (char === '}' && braceDepth > 0) {
      braceDepth -= 1;
      out += ')';
    } else if (char === ',' && braceDepth > 0) {
      out += '|';
    } else {
      out += escapeRegex(char);
    }
    index += 1;
  }
  while (braceDepth > 0) {
    out += ')';
    braceDepth -= 1;
  }
  return out;
}

function classEnd(glob: string, start: number): number {
  let index = start + 1;
  if (glob[index] === '!' || glob[index] === '^') index += 1;
  if (glob[index] === ']') index += 1;
  while (index < glob.length) {
    if (glob[index] === ']') return index;
    index += 1;
  }
  return -1;
}

function escapeRegex(char: string): string {
  return /[.*+?^${}()|[\]\\/-]/.test(char) ? `\\${char}` : char;
}
