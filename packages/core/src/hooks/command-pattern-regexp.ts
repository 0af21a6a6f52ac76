import { globToRegExp } from '../glob/glob-to-regexp.js';

/**
 * Compiles a hook's `commandPattern`: `/source/flags` is a regular expression (unanchored, as
 * written; `g` and `y` are dropped so `test` stays stateless); anything else is a glob where `*`
 * spans spaces and slashes.
 */
export function commandPatternToRegExp(pattern: string): RegExp {
  const literal = /^\/(.+)\/([dgimsuvy]*)$/s.exec(pattern);
  if (literal !== null) return new RegExp(literal[1]!, literal[2]!.replace('g', '').replace('y', ''));
  return globToRegExp(pattern, { pathMode: false });
}
