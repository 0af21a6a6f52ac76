// Regular expressions from outside the host (MCP input schemas, host- or directory-defined tools,
// `generate_object` schemas) run in V8's backtracking engine when Ajv compiles a `pattern` or a
// `patternProperties` key: `^(a+)+$` against 40 characters blocks the event loop for hours. No
// linear-time engine is installed, so the patterns that can backtrack catastrophically are
// refused instead (SECURITY.md principle 14). The rule is structural and conservative: a pattern
// is accepted only when no repeated group contains a quantifier or an alternation (star height
// at most 1) and it has no backreference — the shapes behind exponential backtracking.

/** Longest pattern accepted from outside (characters). */
export const MAX_UNTRUSTED_PATTERN_LENGTH = 1024;

/** A refused pattern of a schema and why. */
export interface UnsafeSchemaPattern {
  /** JSON pointer of the keyword in the schema (`/properties/name/pattern`, `/patternProperties/<key>`). */
  readonly path: string;
  /** The pattern as written. */
  readonly pattern: string;
  /** Why it is refused. */
  readonly reason: string;
}

interface GroupFrame {
  /** A quantifier or a repeated group appears inside (at any depth). */
  quantified: boolean;
  /** A `|` appears inside (at any depth). */
  alternation: boolean;
}

/** Length of the quantifier at `index` (0 when there is none) and whether it repeats (more than once). */
function quantifierAt(source: string, index: number): { readonly length: number; readonly repeats: boolean } {
  const char = source[index];
  let length = 0;
  let repeats = false;
  if (char === '*' || char === '+') {
    length = 1;
    repeats = true;
  } else if (char === '?') {
    length = 1;
  } else if (char === '{') {
    const match = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(index, index + 32));
    if (match === null) return { length: 0, repeats: false };
    length = match[0].length;
    const min = Number(match[1]);
    const max = match[2] === undefined ? min : match[3] === '' ? Infinity : Number(match[3]);
    repeats = max > 1;
  } else {
    return { length: 0, repeats: false };
  }
  // A lazy quantifier (`*?`) matches the same strings: the `?` belongs to it.
  if (source[index + length] === '?') length += 1;
  return { length, repeats };
}

/**
 * Why `pattern` cannot be evaluated safely by a backtracking engine, or `null` when it can (also
 * `null` for a pattern that is not valid syntax: compiling it reports that). Refused: a repeated
 * group (`*`, `+`, `{n,m}` with m > 1) that contains a quantifier or an alternation at any depth
 * (`(a+)+`, `(a|aa)*`, `((ab)*c)+`), a backreference (`\1`, `\k<name>`), and a pattern over
 * {@link MAX_UNTRUSTED_PATTERN_LENGTH} characters. Accepted: everything else, e.g.
 * `^[a-z0-9_-]+$`, `^\d{4}-\d{2}-\d{2}$`, `^(https?|ftp)://\S+$`, `(foo)?bar*`.
 *
 * The rule is conservative: a few safe patterns are refused too (`^(\d{1,3}\.){3}\d{1,3}$`);
 * rewrite them without a repeated group. Polynomial backtracking between adjacent quantifiers
 * (`\d*\d*\d*$`) is not refused: it is bounded by the argument size limits.
 */
export function unsafePatternReason(pattern: string): string | null {
  if (pattern.length > MAX_UNTRUSTED_PATTERN_LENGTH) return `it is longer than ${MAX_UNTRUSTED_PATTERN_LENGTH} characters`;
  const stack: GroupFrame[] = [{ quantified: false, alternation: false }];
  let index = 0;
  while (index < pattern.length) {
    const char = pattern[index]!;
    const top = stack[stack.length - 1]!;
    if (char === '\\') {
      const next = pattern[index + 1];
      if (next !== undefined && /[1-9]/.test(next)) return `it has a backreference (\\${next}), which can backtrack without bound`;
      if (next === 'k' && pattern[index + 2] === '<') return 'it has a named backreference (\\k<...>), which can backtrack without bound';
      // `\u{...}`, `\p{...}`, `\x..` and the like: skip the braces so their digits are not a quantifier.
      if ((next === 'u' || next === 'p' || next === 'P') && pattern[index + 2] === '{') {
        const close = pattern.indexOf('}', index + 3);
        index = close === -1 ? pattern.length : close + 1;
      } else {
        index += 2;
      }
      index = afterQuantifier(pattern, index, top);
      continue;
    }
    if (char === '[') {
      index = afterClass(pattern, index);
      index = afterQuantifier(pattern, index, top);
      continue;
    }
    if (char === '(') {
      stack.push({ quantified: false, alternation: false });
      index += 1;
      // `(?:`, `(?=`, `(?!`, `(?<=`, `(?<!`, `(?<name>`: skip the prefix.
      if (pattern[index] === '?') {
        index += 1;
        if (pattern[index] === '<' && pattern[index + 1] !== '=' && pattern[index + 1] !== '!') {
          const close = pattern.indexOf('>', index);
          index = close === -1 ? pattern.length : close + 1;
        } else {
          index += pattern[index] === '<' ? 2 : 1;
        }
      }
      continue;
    }
    if (char === ')') {
      const group = stack.length > 1 ? stack.pop()! : { quantified: false, alternation: false };
      const parent = stack[stack.length - 1]!;
      index += 1;
      const quantifier = quantifierAt(pattern, index);
      if (quantifier.repeats && (group.quantified || group.alternation)) {
        const body = group.quantified ? 'a quantifier' : 'an alternation';
        return `a repeated group contains ${body} (nested repetition can backtrack exponentially)`;
      }
      parent.quantified ||= group.quantified || quantifier.length > 0;
      parent.alternation ||= group.alternation;
      index += quantifier.length;
      continue;
    }
    if (char === '|') {
      top.alternation = true;
      index += 1;
      continue;
    }
    index = afterQuantifier(pattern, index + 1, top);
  }
  return null;
}

/** Skips a quantifier at `index` (marking `frame`) and returns the index after it. */
function afterQuantifier(pattern: string, index: number, frame: GroupFrame): number {
  const quantifier = quantifierAt(pattern, index);
  if (quantifier.length > 0) frame.quantified = true;
  return index + quantifier.length;
}

/** The index after the character class opening at `start`. */
function afterClass(pattern: string, start: number): number {
  let index = start + 1;
  if (pattern[index] === '^') index += 1;
  // A `]` right after `[` or `[^` is a literal in non-unicode mode.
  if (pattern[index] === ']') index += 1;
  while (index < pattern.length) {
    const char = pattern[index];
    if (char === '\\') index += 2;
    else if (char === ']') return index + 1;
    else index += 1;
  }
  return index;
}

/** Keywords whose values are data, not subschemas: a `pattern` key inside them is no keyword. */
const DATA_KEYWORDS = new Set(['const', 'enum', 'default', 'examples', 'example']);
/** Keywords whose value is an object of subschemas keyed by property names (not keywords). */
const SCHEMA_MAPS = new Set(['properties', '$defs', 'definitions', 'dependentSchemas', 'dependencies']);

function escapePointer(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * Every `pattern` and `patternProperties` key of `schema` (at any depth) that
 * {@link unsafePatternReason} refuses, with its JSON pointer. Empty when every pattern is safe.
 * Walks the schema as JSON Schema (draft-07 and 2020-12): `const`, `enum`, `default` and
 * `examples` are data and not searched.
 */
export function unsafeSchemaPatterns(schema: unknown): UnsafeSchemaPattern[] {
  const found: UnsafeSchemaPattern[] = [];
  const seen = new Set<object>();
  const visit = (node: unknown, path: string, keyed: boolean): void => {
    if (typeof node !== 'object' || node === null || seen.has(node)) return;
    seen.add(node);
    if (Array.isArray(node)) {
      node.forEach((item, position) => visit(item, `${path}/${position}`, false));
      return;
    }
    for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
      const at = `${path}/${escapePointer(key)}`;
      if (keyed) {
        // Keys of `properties` and the like are names; their values are subschemas.
        visit(value, at, false);
        continue;
      }
      if (DATA_KEYWORDS.has(key)) continue;
      if (key === 'pattern' && typeof value === 'string') {
        const reason = unsafePatternReason(value);
        if (reason !== null) found.push({ path: at, pattern: value, reason });
        continue;
      }
      if (key === 'patternProperties' && typeof value === 'object' && value !== null && !Array.isArray(value)) {
        for (const [pattern, subschema] of Object.entries(value as Record<string, unknown>)) {
          const reason = unsafePatternReason(pattern);
          if (reason !== null) found.push({ path: `${at}/${escapePointer(pattern)}`, pattern, reason });
          visit(subschema, `${at}/${escapePointer(pattern)}`, false);
        }
        continue;
      }
      visit(value, at, SCHEMA_MAPS.has(key));
    }
  };
  visit(schema, '', false);
  return found;
}

/** One line naming every refused pattern of a schema (for errors and statuses). */
export function describeUnsafePatterns(patterns: readonly UnsafeSchemaPattern[]): string {
  return patterns.map((entry) => `pattern ${JSON.stringify(entry.pattern)} at ${entry.path || '/'} is refused: ${entry.reason}`).join('; ');
}

/**
 * Ajv's `code.regExp` engine for schemas that do not come from this codebase: builds the
 * `RegExp` of a pattern only when {@link unsafePatternReason} accepts it, and throws otherwise, so
 * compiling such a schema fails with that reason instead of leaving a validator that can stall
 * the process. Pass as `new Ajv({ code: { regExp: safeRegExp } })`.
 */
export const safeRegExp: ((pattern: string, flags: string) => RegExp) & { code: string } = Object.assign(
  (pattern: string, flags: string): RegExp => {
    const reason = unsafePatternReason(pattern);
    if (reason !== null) throw new Error(`pattern ${JSON.stringify(pattern)} is refused: ${reason}`);
    return new RegExp(pattern, flags);
  },
  { code: 'safeRegExp' },
);
