/** A compiled path glob, the specifier of a rule like `write(**\/.env*)`. */
export interface PathGlob {
  /** The glob as written. */
  readonly source: string;
  /**
   * True when the workspace-relative `path` matches. The path is normalised first
   * (`./a//b/../c` -> `a/c`). `caseInsensitive` is what deny and ask rules use, so that
   * `.ENV` on a case-insensitive disk is still `.env`.
   */
  matches(path: string, options?: { readonly caseInsensitive?: boolean }): boolean;
}

/**
 * Compiles a path glob:
 * - `*` matches any characters except `/`, `?` one character except `/`;
 * - `**` as a whole segment matches any number of segments, including none: a leading `**\/`
 *   also matches at the workspace root (`**\/.env*` matches `.env`), a trailing `/**` also matches
 *   the directory itself (`src/**` matches `src`);
 * - `{a,b}` matches either alternative (nesting allowed; without a comma the braces are literal);
 * - `\` escapes the next character; everything else, `[` included, is literal;
 * - dotfiles are matched like any other name (a permission rule must not skip `.env`).
 */
export function compilePathGlob(glob: string): PathGlob {
  const body = translate(glob, 0, false).expression;
  let sensitive: RegExp | undefined;
  let insensitive: RegExp | undefined;
  return {
    source: glob,
    matches(path, options = {}): boolean {
      const normalised = normalizeWorkspacePath(path);
      if (options.caseInsensitive === true) {
        insensitive ??= new RegExp(`^${body}$`, 'iu');
        return insensitive.test(normalised);
      }
      sensitive ??= new RegExp(`^${body}$`, 'u');
      return sensitive.test(normalised);
    },
  };
}

/**
 * Lexically normalises a workspace-relative path: `\` stays a file-name character, empty and `.`
 * segments go, `..` cancels the segment before it, a leading `/` is kept, the root is `.`.
 */
export function normalizeWorkspacePath(path: string): string {
  const segments: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..' && segments.length > 0 && segments.at(-1) !== '..') segments.pop();
    else segments.push(segment);
  }
  const joined = segments.join('/');
  if (path.startsWith('/')) return `/${joined}`;
  return joined === '' ? '.' : joined;
}

const REGEX_SPECIAL = /[.*+?^${}()|[\]\\/]/g;

function escapeLiteral(text: string): string {
  return text.replace(REGEX_SPECIAL, '\\$&');
}

/** Translates from `start` until the end, or (inside braces) until an unnested `,` or `}`. */
function translate(glob: string, start: number, inBraces: boolean): { expression: string; end: number } {
  let expression = '';
  let index = start;
  while (index < glob.length) {
    const char = glob[index] as string;
    if (inBraces && (char === ',' || char === '}')) break;
    const segmentStart = index === start || glob[index - 1] === '/';
    const next = glob[index + 1];
    const afterStars = glob[index + 2];
    const segmentEndsAfterStars = afterStars === undefined || (inBraces && (afterStars === ',' || afterStars === '}'));
    if (char === '\\' && next !== undefined) {
      expression += escapeLiteral(next);
      index += 2;
    } else if (char === '/' && next === '*' && afterStars === '*' && endsAlternative(glob, index + 3, inBraces)) {
      expression += '(?:/.*)?';
      index += 3;
    } else if (char === '*' && next === '*' && segmentStart && afterStars === '/') {
      expression += '(?:[^/]*/)*';
      index += 3;
    } else if (char === '*' && next === '*' && segmentStart && segmentEndsAfterStars) {
      expression += '.*';
      index += 2;
    } else if (char === '*') {
      expression += '[^/]*';
      index += next === '*' ? 2 : 1;
    } else if (char === '?') {
      expression += '[^/]';
      index += 1;
    } else if (char === '{') {
      const group = translateBraces(glob, index);
      expression += group.expression;
      index = group.end;
    } else {
      expression += escapeLiteral(char);
      index += 1;
    }
  }
  return { expression, end: index };
}

function endsAlternative(glob: string, index: number, inBraces: boolean): boolean {
  const char = glob[index];
  return char === undefined || (inBraces && (char === ',' || char === '}'));
}

/** `{a,b,...}` at `open`; braces without a top-level comma or a close are literal. */
function translateBraces(glob: string, open: number): { expression: string; end: number } {
  const alternatives: string[] = [];
  let index = open + 1;
  for (;;) {
    const part = translate(glob, index, true);
    alternatives.push(part.expression);
    const stop = glob[part.end];
    if (stop === undefined) return { expression: '\\{', end: open + 1 };
    index = part.end + 1;
    if (stop === '}') break;
  }
  if (alternatives.length < 2) return { expression: '\\{', end: open + 1 };
  return { expression: `(?:${alternatives.join('|')})`, end: index };
}
