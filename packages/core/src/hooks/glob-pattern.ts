/**
 * Compiles a glob into an anchored RegExp.
 * - `**` matches anything, `/` included;
 * - `*` matches anything but `/` when `pathMode` is on (paths), anything at all otherwise
 *   (tool names, shell commands);
 * - `?` one character (not `/` in path mode); `{a,b}` alternatives; `[...]` classes (`[!...]`
 *   negated).
 * Every other character is literal.
 */
export function globToRegExp(glob: string, options: { readonly pathMode?: boolean } = {}): RegExp {
  const pathMode = options.pathMode === true;
  const star = pathMode ? '[^/]*' : '[\\s\\S]*';
  const one = pathMode ? '[^/]' : '[\\s\\S]';
  let source = '';
  let braces = 0;
  for (let i = 0; i < glob.length; i += 1) {
    const ch = glob[i]!;
    if (ch === '*') {
      if (glob[i + 1] === '*') {
        i += 1;
        // `**/` also matches zero directories, so `**/x` matches `x`.
        if (pathMode && glob[i + 1] === '/') {
          i += 1;
          source += '(?:[\\s\\S]*/)?';
        } else source += '[\\s\\S]*';
      } else source += star;
    } else if (ch === '?') source += one;
    else if (ch === '{') {
      braces += 1;
      source += '(?:';
    } else if (ch === '}' && braces > 0) {
      braces -= 1;
      source += ')';
    } else if (ch === ',' && braces > 0) source += '|';
    else if (ch === '[') {
      const close = glob.indexOf(']', i + 2);
      if (close === -1) source += '\\[';
      else {
        let body = glob.slice(i + 1, close);
        const negated = body.startsWith('!') || body.startsWith('^');
        if (negated) body = body.slice(1);
        source += `[${negated ? '^' : ''}${body.replace(/[\\\]]/g, '\\$&')}]`;
        i = close;
      }
    } else source += ch.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }
  // Unbalanced `{` is treated as literal text by closing the groups it opened.
  source += ')'.repeat(braces);
  return new RegExp(`^${source}$`);
}

/**
 * Compiles a command pattern: `/source/flags` is a regular expression (unanchored, as written);
 * anything else is a glob where `*` spans spaces and slashes.
 */
export function commandPatternToRegExp(pattern: string): RegExp {
  const literal = /^\/(.+)\/([dgimsuvy]*)$/s.exec(pattern);
  if (literal !== null) return new RegExp(literal[1]!, literal[2]!.replace('g', '').replace('y', ''));
  return globToRegExp(pattern);
}
