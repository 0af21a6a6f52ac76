/**
 * Compiles a glob (`**`, `*`, `?`, `[...]`, `{a,b}`) into a RegExp matched against a whole
 * POSIX relative path. `**` spans any number of path segments (including none, so `**\/*.ts`
 * matches `a.ts`); `*` and `?` never cross a `/`. Used by the in-memory backend to give glob and
 * search filters the same meaning as the local backend's matcher.
 */
export function globToRegExp(pattern: string): RegExp {
  return new RegExp(`^${translate(pattern)}$`);
}

function translate(pattern: string): string {
  let out = '';
  let i = 0;
  while (i < pattern.length) {
    const ch = pattern[i] as string;
    if (ch === '*') {
      if (pattern[i + 1] === '*') {
        const atSegmentStart = i === 0 || pattern[i - 1] === '/';
        const followedBySlash = pattern[i + 2] === '/';
        if (atSegmentStart && followedBySlash) {
          // `**/` = zero or more whole directories.
          out += '(?:[^/]*/)*';
          i += 3;
          continue;
        }
        out += '.*';
        i += 2;
        continue;
      }
      out += '[^/]*';
      i += 1;
    } else if (ch === '?') {
      out += '[^/]';
      i += 1;
    } else if (ch === '[') {
      const end = pattern.indexOf(']', i + 2);
      if (end === -1) {
        out += '\\[';
        i += 1;
        continue;
      }
      let body = pattern.slice(i + 1, end);
      if (body.startsWith('!')) body = `^${body.slice(1)}`;
      out += `[${body.replace(/\\/g, '\\\\')}]`;
      i = end + 1;
    } else if (ch === '{') {
      const end = matchingBrace(pattern, i);
      if (end === -1) {
        out += '\\{';
        i += 1;
        continue;
      }
      const alternatives = splitTopLevel(pattern.slice(i + 1, end));
      out += `(?:${alternatives.map((alternative) => translate(alternative)).join('|')})`;
      i = end + 1;
    } else {
      out += ch.replace(/[.+^$()|\\\]]/g, '\\$&');
      i += 1;
    }
  }
  return out;
}

function matchingBrace(pattern: string, start: number): number {
  let depth = 0;
  for (let i = start; i < pattern.length; i += 1) {
    if (pattern[i] === '{') depth += 1;
    else if (pattern[i] === '}') {
      depth -= 1;
      if (depth === 0) return i;
    }
  }
  return -1;
}

function splitTopLevel(body: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of body) {
    if (ch === '{') depth += 1;
    if (ch === '}') depth -= 1;
    if (ch === ',' && depth === 0) {
      parts.push(current);
      current = '';
    } else {
      current += ch;
    }
  }
  parts.push(current);
  return parts;
}
