import { describe, expect, it } from 'vitest';
import { CodeError } from '../errors/code-error.js';
import { parsePermissionRule } from './permission-rule.js';

describe('parsePermissionRule', () => {
  it('parses a bare tool rule', () => {
    const rule = parsePermissionRule(' read ');
    expect(rule).toMatchObject({ source: 'read', toolPattern: 'read', specifier: null, command: null, paths: null });
    expect(rule.matchesTool('read')).toBe(true);
    expect(rule.matchesTool('read_many')).toBe(false);
  });

  it('treats the tool part as a glob', () => {
    expect(parsePermissionRule('bash*').matchesTool('bash')).toBe(true);
    expect(parsePermissionRule('bash*').matchesTool('bash_background')).toBe(true);
    expect(parsePermissionRule('mcp__github__*').matchesTool('mcp__github__create_issue')).toBe(true);
    expect(parsePermissionRule('mcp__github__*').matchesTool('mcp__gitlab__create_issue')).toBe(false);
    expect(parsePermissionRule('re?d').matchesTool('read')).toBe(true);
    expect(parsePermissionRule('*').matchesTool('anything')).toBe(true);
  });

  it('matches tool names case-insensitively', () => {
    expect(parsePermissionRule('Bash(rm*)').matchesTool('bash')).toBe(true);
  });

  it('parses a specifier as both a command pattern and a path glob', () => {
    const rule = parsePermissionRule('bash(git log*)');
    expect(rule.toolPattern).toBe('bash');
    expect(rule.specifier).toBe('git log*');
    expect(rule.command?.matches(['git', 'log', '-5'])).toBe(true);
    const write = parsePermissionRule('write(**/.env*)');
    expect(write.paths?.matches('config/.env.local')).toBe(true);
    expect(write.paths?.matches('src/env.ts')).toBe(false);
  });

  it('accepts balanced parentheses inside the specifier', () => {
    expect(parsePermissionRule('edit(src/(legacy)/**)').specifier).toBe('src/(legacy)/**');
  });

  it.each([
    ['', 'the rule is empty'],
    ['   ', 'the rule is empty'],
    ['bash(git status', 'unbalanced parentheses: the specifier must end with ")"'],
    ['bash(echo ))', 'unbalanced parentheses in the specifier'],
    ['bash)', 'unbalanced parentheses: ")" without "("'],
    ['bash()', 'the specifier between the parentheses is empty'],
    ['(git status)', '"" is not a tool-name glob (letters, digits, _, -, * and ? only)'],
    ['ba sh', '"ba sh" is not a tool-name glob (letters, digits, _, -, * and ? only)'],
    ['bash.*', '"bash.*" is not a tool-name glob (letters, digits, _, -, * and ? only)'],
  ])('rejects %j', (rule, reason) => {
    let caught: unknown;
    try {
      parsePermissionRule(rule);
    } catch (error) {
      caught = error;
    }
    expect(CodeError.hasCode(caught, 'SESSION_CONFIGURATION_ERROR')).toBe(true);
    expect((caught as CodeError).details).toMatchObject({ reason });
  });

  it('names the rule in the error', () => {
    expect(() => parsePermissionRule('bash(git status')).toThrow(/bash\(git status/);
  });
});
