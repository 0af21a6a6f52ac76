/** How {@link globToRegExp} reads a glob. Every field is optional. */
export interface GlobOptions {
  /**
   * Path semantics: `*` and `?` never cross a `/`, `**` spans segments. Off, `*` and `?` match
   * any character, `/` and spaces included (tool names, shell commands). Default `true`.
   */
  readonly pathMode?: boolean;
  /**
   * Where `**` spans segments (path mode only):
   * - `'anywhere'`: any `**` matches anything, `/` included; `**\/` also matches zero
   *   directories (`**\/x` matches `x`); `dir/**` needs something after the slash;
   * - `'segment'`: only a whole segment: `**\/` is zero or more directories, a trailing `/**`
   *   also matches the directory itself (`src/**` matches `src`), and `a**` is just `a*`.
   * Default `'anywhere'`.
   */
  readonly globstar?: 'anywhere' | 'segment';
  /**
   * `[...]` character classes (`[!...]` / `[^...]` negated; a `]` right after the opening
   * bracket is a member). Off, `[` and `]` are literal. Default `true`.
   */
  readonly classes?: boolean;
  /** `\` escapes the next character. Off, `\` is a literal character. Default `false`. */
  readonly escapes?: boolean;
  /**
   * - `'group'`: every `{...}` is a group whose top-level `,` separates alternatives (`{a}`
   *   matches `a`); an unclosed `{` is closed at the end of the glob;
   * - `'strict'`: braces are literal unless they close and hold a top-level comma (`{a}`
   *   matches `{a}`).
   * Nesting is allowed in both. Default `'group'`.
   */
  readonly braces?: 'group' | 'strict';
  /** Match case-insensitively (Unicode case folding). Default `false`. */
  readonly caseInsensitive?: boolean;
}

interface Settings {
  readonly pathMode: boolean;
  readonly segmentGlobstar: boolean;
  readonly classes: boolean;
  readonly escapes: boolean;
  readonly strictBraces: boolean;
  readonly star: string;
  readonly one: string;
}

/**
 * The ONE glob compiler of core: hook matchers, permission rule specifiers and tool-name globs,
 * and the in-memory test backend all build on it, each with the {@link GlobOptions} it needs.
 * Returns a RegExp anchored at both ends (`u` flag; `i` when case-insensitive). Every character
 * that is not glob syntax is literal, and every wildcard matches any character (a newline
 * included) that it may match at all: a name with a newline in it must not slip past a rule.
 * Dotfiles are matched like any other name (a permission rule must not skip `.env`).
 *
 * @example
 * globToRegExp('src/**\/*.ts').test('src/a/b.ts'); // true
 * globToRegExp('mcp__*', { pathMode: false }).test('mcp__github__issue'); // true
 */
export function globToRegExp(glob: string, options: GlobOptions = {}): RegExp {
  const pathMode = options.pathMode !== false;
  const settings: Settings = {
    pathMode,
    segmentGlobstar: pathMode && options.globstar === 'segment',
    classes: options.classes !== false,
    escapes: options.escapes === true,
    strictBraces: options.braces === 'strict',
    star: pathMode ? '[^/]*' : '[\\s\\S]*',
    one: pathMode ? '[^/]' : '[\\s\\S]',
  };
  const body = translate(glob, 0, false, settings).expression;
  return new RegExp(`^${body}$`, options.caseInsensitive === true ? 'iu' : 'u');
}

const REGEX_SPECIAL = /[.*+?^${}()|[\]\\/]/g;

function escapeLiteral(text: string): string {
  return text.replace(REGEX_SPECIAL, '\\$&');
}

/** Where an alternative (or the whole glob) ends: the end of the text, or an unnested `,`/`}`. */
function endsAlternative(glob: string, index: number, inBraces: boolean): boolean {
  const char = glob[index];
  return char === undefined || (inBraces && (char === ',' || char === '}'));
}

/** Translates from `start` until the end, or (inside braces) until an unnested `,` or `}`. */
function translate(glob: string, start: number, inBraces: boolean, settings: Settings): { expression: string; end: number } {
  let expression = '';
  let index = start;
  while (index < glob.length) {
    const char = glob[index] as string;
    if (inBraces && (char === ',' || char === '}')) break;
    const next = glob[index + 1];
    if (char === '\\' && settings.escapes && next !== undefined) {
      expression += escapeLiteral(next);
      index += 2;
    } else if (char === '*' && next === '*' && settings.pathMode) {
      const globstar = translateGlobstar(glob, index, start, inBraces, settings);
      expression += globstar.expression;
      index = globstar.end;
    } else if (char === '/' && settings.segmentGlobstar && next === '*' && glob[index + 2] === '*' && endsAlternative(glob, index + 3, inBraces)) {
      // A trailing `/**` also matches the directory itself.
      expression += '(?:/[\\s\\S]*)?';
      index += 3;
    } else if (char === '*') {
      expression += settings.star;
      index += next === '*' ? 2 : 1;
    } else if (char === '?') {
      expression += settings.one;
      index += 1;
    } else if (char === '[' && settings.classes) {
      const group = translateClass(glob, index);
      expression += group.expression;
      index = group.end;
    } else if (char === '{') {
      const group = translateBraces(glob, index, settings);
      expression += group.expression;
      index = group.end;
    } else {
      expression += escapeLiteral(char);
      index += 1;
    }
  }
  return { expression, end: index };
}

/** `**` at `index` in path mode. */
function translateGlobstar(glob: string, index: number, start: number, inBraces: boolean, settings: Settings): { expression: string; end: number } {
  const followedBySlash = glob[index + 2] === '/';
  if (!settings.segmentGlobstar) {
    // `**/` also matches zero directories, so `**/x` matches `x`.
    if (followedBySlash) return { expression: '(?:[\\s\\S]*/)?', end: index + 3 };
    return { expression: '[\\s\\S]*', end: index + 2 };
  }
  const segmentStart = index === start || glob[index - 1] === '/';
  if (segmentStart && followedBySlash) return { expression: '(?:[^/]*/)*', end: index + 3 };
  if (segmentStart && endsAlternative(glob, index + 2, inBraces)) return { expression: '[\\s\\S]*', end: index + 2 };
  // Not a whole segment: an ordinary `*`.
  return { expression: settings.star, end: index + 2 };
}

/** `[...]` at `open`; without a closing `]` the `[` is literal. */
function translateClass(glob: string, open: number): { expression: string; end: number } {
  let index = open + 1;
  const negated = glob[index] === '!' || glob[index] === '^';
  if (negated) index += 1;
  const bodyStart = index;
  // A `]` right after the opening bracket (or its negation) is a member, not the end.
  if (glob[index] === ']') index += 1;
  const close = glob.indexOf(']', index);
  if (close === -1) return { expression: '\\[', end: open + 1 };
  const body = glob.slice(bodyStart, close).replace(/[\\\]^[]/g, '\\$&');
  return { expression: `[${negated ? '^' : ''}${body}]`, end: close + 1 };
}

/** `{a,b,...}` at `open`, per {@link GlobOptions.braces}. */
function translateBraces(glob: string, open: number, settings: Settings): { expression: string; end: number } {
  const alternatives: string[] = [];
  let index = open + 1;
  for (;;) {
    const part = translate(glob, index, true, settings);
    alternatives.push(part.expression);
    const stop = glob[part.end];
    if (stop === undefined) {
      // Unclosed: `group` closes it at the end, `strict` reads the `{` literally.
      if (settings.strictBraces) return { expression: '\\{', end: open + 1 };
      return { expression: `(?:${alternatives.join('|')})`, end: part.end };
    }
    index = part.end + 1;
    if (stop === '}') break;
  }
  if (settings.strictBraces && alternatives.length < 2) return { expression: '\\{', end: open + 1 };
  return { expression: `(?:${alternatives.join('|')})`, end: index };
}
