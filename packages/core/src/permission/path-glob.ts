import { globToRegExp } from '../glob/glob-to-regexp.js';
import type { GlobOptions } from '../glob/glob-to-regexp.js';

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

// Permission specifiers: `**` only as a whole segment, `\` escapes, `[` literal (a rule naming
// `[id].tsx` means that file), braces without a comma literal.
const PERMISSION_GLOB: GlobOptions = Object.freeze({ globstar: 'segment', classes: false, escapes: true, braces: 'strict' });

/**
 * Compiles a path glob:
 * - `*` matches any characters except `/`, `?` one character except `/` (a newline included:
 *   a file name with a newline in it must not dodge a deny rule);
 * - `**` as a whole segment matches any number of segments, including none: a leading `**\/`
 *   also matches at the workspace root (`**\/.env*` matches `.env`), a trailing `/**` also matches
 *   the directory itself (`src/**` matches `src`);
 * - `{a,b}` matches either alternative (nesting allowed; without a comma the braces are literal);
 * - `\` escapes the next character; everything else, `[` included, is literal;
 * - dotfiles are matched like any other name (a permission rule must not skip `.env`).
 */
export function compilePathGlob(glob: string): PathGlob {
  let sensitive: RegExp | undefined;
  let insensitive: RegExp | undefined;
  return {
    source: glob,
    matches(path, options = {}): boolean {
      const normalised = normalizeWorkspacePath(path);
      if (options.caseInsensitive === true) {
        insensitive ??= globToRegExp(glob, { ...PERMISSION_GLOB, caseInsensitive: true });
        return insensitive.test(normalised);
      }
      sensitive ??= globToRegExp(glob, PERMISSION_GLOB);
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
