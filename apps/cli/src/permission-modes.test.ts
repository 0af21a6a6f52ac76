import { describe, expect, it } from 'vitest';
import { evaluatePermission, validatePermissionPolicy } from '@a3s-lab/code-core/kernel';
import { PERMISSION_MODES, permissionPolicyFor } from './permission-modes.js';

const decide = (mode: (typeof PERMISSION_MODES)[number], toolName: string, command?: string): string =>
  evaluatePermission(permissionPolicyFor(mode), {
    toolName,
    target: command === undefined ? (toolName === 'bash' ? { kind: 'command', command: 'ls' } : { kind: 'paths', paths: ['src/a.ts'] }) : { kind: 'command', command },
  }).decision;

describe('permission modes', () => {
  it('are valid session policies', () => {
    for (const mode of PERMISSION_MODES) expect(() => validatePermissionPolicy(permissionPolicyFor(mode))).not.toThrow();
  });

  it.each([
    // tool, default, accept-edits, plan, yolo
    ['read', 'allow', 'allow', 'allow', 'allow'],
    ['grep', 'allow', 'allow', 'allow', 'allow'],
    ['edit', 'ask', 'allow', 'deny', 'allow'],
    ['write', 'ask', 'allow', 'deny', 'allow'],
    ['bash', 'ask', 'ask', 'deny', 'allow'],
  ])('%s: default=%s accept-edits=%s plan=%s yolo=%s', (tool, ...expected) => {
    expect(PERMISSION_MODES.map((mode) => decide(mode, tool))).toEqual(expected);
  });
});
