import { describe, expect, it } from 'vitest';
import { evaluatePermission } from './permission-policy.js';
import type { PermissionPolicy } from './permission-policy.js';
import { MAX_SHELL_NESTING_DEPTH } from './shell-issue.js';

const depth = MAX_SHELL_NESTING_DEPTH + 2;

/** `bash -c '...'` nested `levels` times around `inner`, quoting each level. */
function nestedShells(levels: number, inner: string): string {
  let command = inner;
  for (let level = 0; level < levels; level += 1) command = `bash -c ${JSON.stringify(command)}`;
  return command;
}

const PAYLOADS: Array<[string, string]> = [
  ['nested bash -c', nestedShells(depth, 'rm -rf /tmp/x')],
  ['nested command substitution', `echo ${'$('.repeat(depth)}rm -rf /tmp/x${')'.repeat(depth)}`],
  ['a chain of sudo wrappers', `${'sudo '.repeat(depth)}rm -rf /tmp/x`],
  ['a chain of env/timeout/nice wrappers', `${'env timeout 5 nice '.repeat(depth)}rm -rf /tmp/x`],
  ['nested eval', `${'eval '.repeat(depth)}rm -rf /tmp/x`],
  ['nested backticks inside bash -c', nestedShells(depth, 'echo `rm -rf /tmp/x`')],
];

const POLICIES: Array<[string, PermissionPolicy]> = [
  ['deny rule + bare allow', { allow: ['bash'], deny: ['bash(rm*)'] }],
  ['deny rule + default allow (yolo)', { deny: ['bash(rm*)'], defaultDecision: 'allow' }],
  ['deny rule + ask default', { deny: ['bash(rm*)'], defaultDecision: 'ask' }],
  ['bare allow only', { allow: ['bash'] }],
];

describe('past the nesting limit the answer is deny', () => {
  for (const [policyName, policy] of POLICIES) {
    it.each(PAYLOADS)(`${policyName}: %s`, (_name, command) => {
      const decision = evaluatePermission(policy, { toolName: 'bash', target: { kind: 'command', command } });
      expect(decision.decision).toBe('deny');
    });
  }

  it('a command just inside the limit is still judged by the rules', () => {
    const command = nestedShells(3, 'rm -rf /tmp/x');
    expect(evaluatePermission({ allow: ['bash'], deny: ['bash(rm*)'] }, { toolName: 'bash', target: { kind: 'command', command } }).decision).toBe('deny');
    expect(evaluatePermission({ allow: ['bash'], deny: ['bash(curl*)'] }, { toolName: 'bash', target: { kind: 'command', command: nestedShells(3, 'ls') } }).decision).toBe('ask');
  });
});
