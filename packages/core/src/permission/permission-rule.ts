import { CodeError } from '../errors/code-error.js';
import { globToRegExp } from '../glob/glob-to-regexp.js';
import { compileCommandPattern } from './command-pattern.js';
import type { CommandPattern } from './command-pattern.js';
import { compilePathGlob } from './path-glob.js';
import type { PathGlob } from './path-glob.js';

/**
 * A parsed permission rule: `read`, `bash*`, `mcp__github__*`, `bash(git log*)`,
 * `write(**\/.env*)`. The part before the parentheses is a glob on the tool name; the optional
 * specifier is matched against the call's permission target (a command or paths).
 */
export interface PermissionRule {
  /** The rule as written (trimmed). */
  readonly source: string;
  /** The tool-name glob (`*` any characters, `?` one), matched case-insensitively. */
  readonly toolPattern: string;
  /**
   * The text inside the parentheses, or null for a bare rule. A bare rule matches every call of
   * its tools; a rule with a specifier never matches a call whose target kind is `none`.
   */
  readonly specifier: string | null;
  /** True when the rule applies to the tool `toolName`. */
  matchesTool(toolName: string): boolean;
  /** The specifier as a command pattern (see `compileCommandPattern`); null for a bare rule. */
  readonly command: CommandPattern | null;
  /** The specifier as a path glob (see `compilePathGlob`); null for a bare rule. */
  readonly paths: PathGlob | null;
}

/** Longest rule accepted; longer ones are configuration mistakes, not policies. */
export const MAX_PERMISSION_RULE_LENGTH = 4096;

const TOOL_GLOB = /^[A-Za-z0-9_\-*?]+$/;

/**
 * Parses one permission rule string.
 *
 * @throws CodeError SESSION_CONFIGURATION_ERROR naming the rule (`details.rule`, `details.reason`)
 *   for an empty rule, a bad tool glob, an empty specifier or unbalanced parentheses.
 */
export function parsePermissionRule(rule: string): PermissionRule {
  if (typeof rule !== 'string') throw invalidRule(String(rule), 'a rule must be a string');
  const source = rule.trim();
  if (source.length === 0) throw invalidRule(rule, 'the rule is empty');
  if (source.length > MAX_PERMISSION_RULE_LENGTH) {
    throw invalidRule(source.slice(0, 64), `the rule is longer than ${MAX_PERMISSION_RULE_LENGTH} characters`);
  }
  const open = source.indexOf('(');
  if (open === -1 && source.includes(')')) throw invalidRule(source, 'unbalanced parentheses: ")" without "("');
  const toolPattern = (open === -1 ? source : source.slice(0, open)).trim();
  if (!TOOL_GLOB.test(toolPattern)) {
    throw invalidRule(source, `"${toolPattern}" is not a tool-name glob (letters, digits, _, -, * and ? only)`);
  }
  let specifier: string | null = null;
  if (open !== -1) {
    if (!source.endsWith(')')) throw invalidRule(source, 'unbalanced parentheses: the specifier must end with ")"');
    specifier = source.slice(open + 1, -1).trim();
    if (specifier.length === 0) throw invalidRule(source, 'the specifier between the parentheses is empty');
    if (!parenthesesBalance(specifier)) throw invalidRule(source, 'unbalanced parentheses in the specifier');
  }
  // Only letters, digits, `_`, `-`, `*` and `?` get here (TOOL_GLOB), so no other glob syntax applies.
  // Case-insensitive: a `Bash(rm*)` deny rule copied from another agent's config must still bite.
  const toolGlob = globToRegExp(toolPattern, { pathMode: false, caseInsensitive: true });
  return {
    source,
    toolPattern,
    specifier,
    matchesTool: (toolName) => toolGlob.test(toolName),
    command: specifier === null ? null : compileCommandPattern(specifier),
    paths: specifier === null ? null : compilePathGlob(specifier),
  };
}

function parenthesesBalance(text: string): boolean {
  let depth = 0;
  for (const char of text) {
    if (char === '(') depth += 1;
    if (char === ')') depth -= 1;
    if (depth < 0) return false;
  }
  return depth === 0;
}

function invalidRule(rule: string, reason: string): CodeError {
  return new CodeError('SESSION_CONFIGURATION_ERROR', `invalid permission rule "${rule}": ${reason}`, {
    details: { rule, reason },
  });
}
