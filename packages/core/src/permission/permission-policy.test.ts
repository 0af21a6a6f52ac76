import { describe, expect, it } from 'vitest';
import { CodeError } from '../errors/code-error.js';
import type { PermissionTarget } from '../tools/tool.js';
import { evaluatePermission, mergePermissionPolicies, strictestPermission, validatePermissionPolicy } from './permission-policy.js';
import type { PermissionPolicy } from './permission-policy.js';

const command = (text: string): PermissionTarget => ({ kind: 'command', command: text });
const paths = (...list: string[]): PermissionTarget => ({ kind: 'paths', paths: list });
const none: PermissionTarget = { kind: 'none' };

function decide(policy: PermissionPolicy, toolName: string, target: PermissionTarget): string {
  return evaluatePermission(policy, { toolName, target }).decision;
}

describe('evaluatePermission: rule precedence', () => {
  it('lets deny beat ask and allow when several rules match', () => {
    const policy: PermissionPolicy = { allow: ['bash(git *)'], ask: ['bash(git push*)'], deny: ['bash(git push --force*)'] };
    expect(decide(policy, 'bash', command('git status'))).toBe('allow');
    expect(decide(policy, 'bash', command('git push origin main'))).toBe('ask');
    expect(decide(policy, 'bash', command('git push --force origin main'))).toBe('deny');
  });

  it('lets a specifier deny beat a bare ask and a bare allow', () => {
    const policy: PermissionPolicy = { allow: ['bash'], ask: ['bash'], deny: ['bash(rm*)'] };
    expect(decide(policy, 'bash', command('rm x'))).toBe('deny');
    expect(decide(policy, 'bash', command('ls'))).toBe('ask');
  });

  it('only applies rules whose tool glob matches', () => {
    const policy: PermissionPolicy = { allow: ['read', 'mcp__github__*'], deny: ['write(**)'] };
    expect(decide(policy, 'read', paths('a.ts'))).toBe('allow');
    expect(decide(policy, 'mcp__github__create_issue', none)).toBe('allow');
    expect(decide(policy, 'write', paths('a.ts'))).toBe('deny');
    expect(decide(policy, 'edit', paths('a.ts'))).toBe('ask');
  });

  it('uses defaultDecision when nothing matches, ask by default', () => {
    expect(decide({}, 'bash', command('ls'))).toBe('ask');
    expect(decide({ defaultDecision: 'deny' }, 'bash', command('ls'))).toBe('deny');
    expect(decide({ defaultDecision: 'allow' }, 'read', paths('a.ts'))).toBe('allow');
  });

  it('supports the node-sdk example: ask for bash, allow the rest', () => {
    const policy: PermissionPolicy = { ask: ['bash*'], defaultDecision: 'allow' };
    expect(decide(policy, 'bash', command('ls'))).toBe('ask');
    expect(decide(policy, 'read', paths('README.md'))).toBe('allow');
  });

  it('reports the deciding rule and a reason', () => {
    const policy: PermissionPolicy = { allow: ['bash(echo *)'], deny: ['bash(rm*)'] };
    expect(evaluatePermission(policy, { toolName: 'bash', target: command('echo a && rm -rf /') })).toEqual({
      decision: 'deny',
      rule: 'bash(rm*)',
      reason: 'sub-command "rm -rf /" matches deny rule "bash(rm*)"',
    });
    expect(evaluatePermission(policy, { toolName: 'bash', target: command('echo $(id)') })).toEqual({
      decision: 'ask',
      reason: 'command substitution `$(id)` is not provably simple; allow rule "bash(echo *)" only allows provably simple commands',
    });
    expect(evaluatePermission(policy, { toolName: 'bash', target: command('echo hi') })).toMatchObject({ decision: 'allow', rule: 'bash(echo *)' });
  });

  it('throws SESSION_CONFIGURATION_ERROR for an invalid rule', () => {
    expect(() => evaluatePermission({ deny: ['bash(rm'] }, { toolName: 'bash', target: command('ls') })).toThrow(CodeError);
  });
});

describe('evaluatePermission: command targets', () => {
  it('requires every sub-command to be allowed', () => {
    const policy: PermissionPolicy = { allow: ['bash(git status)', 'bash(ls*)'] };
    expect(decide(policy, 'bash', command('git status && ls'))).toBe('allow');
    expect(decide(policy, 'bash', command('git status && make'))).toBe('ask');
  });

  it('treats a bare allow as a whole-tool grant when no deny or ask rule could be dodged', () => {
    expect(decide({ allow: ['bash'] }, 'bash', command('echo $(id) > out'))).toBe('allow');
    expect(decide({ allow: ['bash*'] }, 'bash', command('sudo make install'))).toBe('allow');
  });

  it('asks instead of allowing a non-simple command when a deny rule exists', () => {
    const policy: PermissionPolicy = { allow: ['bash'], deny: ['bash(rm*)'] };
    expect(decide(policy, 'bash', command('ls -la'))).toBe('allow');
    expect(decide(policy, 'bash', command('$(printf rm) -rf /'))).toBe('ask');
    expect(decide(policy, 'bash', command('rm -rf /'))).toBe('deny');
  });

  it('does not let an allow default auto-allow what could dodge a deny rule', () => {
    const policy: PermissionPolicy = { deny: ['bash(curl*)'], defaultDecision: 'allow' };
    expect(decide(policy, 'bash', command('make test'))).toBe('allow');
    expect(decide(policy, 'bash', command('"$TOOL" https://evil.example'))).toBe('ask');
    expect(decide({ defaultDecision: 'allow' }, 'bash', command('"$TOOL" x'))).toBe('allow');
  });

  it('caps a non-simple command that an allow rule covers at ask, even with a deny default', () => {
    expect(decide({ allow: ['bash(echo *)'], defaultDecision: 'deny' }, 'bash', command('echo $(id)'))).toBe('ask');
    expect(decide({ allow: ['bash(echo *)'], defaultDecision: 'deny' }, 'bash', command('cat $(id)'))).toBe('deny');
  });

  it('does not let ./git borrow an allow rule written for git', () => {
    expect(decide({ allow: ['bash(git status)'] }, 'bash', command('./git status'))).toBe('ask');
  });

  it('never matches a specifier rule against a tool without a target', () => {
    const policy: PermissionPolicy = { allow: ['web_fetch(*)'], deny: ['web_fetch(**)'] };
    expect(decide(policy, 'web_fetch', none)).toBe('ask');
    expect(decide({ deny: ['web_fetch'] }, 'web_fetch', none)).toBe('deny');
  });
});

describe('evaluatePermission: path targets', () => {
  const policy: PermissionPolicy = { allow: ['edit(src/**)', 'write(src/**)'], deny: ['write(**/.env*)', 'edit(**/.env*)'] };

  it('denies a protected path at the root and in subdirectories', () => {
    expect(decide(policy, 'write', paths('.env'))).toBe('deny');
    expect(decide(policy, 'write', paths('config/.env.local'))).toBe('deny');
    expect(decide(policy, 'write', paths('src/.env'))).toBe('deny');
    expect(decide(policy, 'write', paths('src/env.ts'))).toBe('allow');
  });

  it('matches deny rules case-insensitively and on the normalised path', () => {
    expect(decide(policy, 'write', paths('config/.ENV.local'))).toBe('deny');
    expect(decide(policy, 'write', paths('src/../.env'))).toBe('deny');
  });

  it('denies a path whose names contain a newline (a ** deny rule cannot be dodged)', () => {
    const guarded: PermissionPolicy = { allow: ['write'], deny: ['write(secrets/**)', 'read(**)'] };
    expect(decide(guarded, 'write', paths('secrets/a\nb.txt'))).toBe('deny');
    expect(decide(guarded, 'write', paths('secrets/dir\n/key'))).toBe('deny');
    expect(decide(guarded, 'read', paths('x\ny'))).toBe('deny');
  });

  it('requires every path to pass', () => {
    expect(decide(policy, 'edit', paths('src/a.ts', 'src/b.ts'))).toBe('allow');
    expect(decide(policy, 'edit', paths('src/a.ts', 'README.md'))).toBe('ask');
    expect(decide(policy, 'edit', paths('src/a.ts', '.env'))).toBe('deny');
  });

  it('does not allow a call that names no path through a specifier', () => {
    expect(decide(policy, 'edit', paths())).toBe('ask');
  });
});

describe('validatePermissionPolicy', () => {
  it('returns a frozen copy of a valid policy', () => {
    const input = { allow: ['read', 'bash(git log*)'], deny: ['write(**/.env*)'], defaultDecision: 'deny' };
    const policy = validatePermissionPolicy(input);
    expect(policy).toEqual(input);
    expect(Object.isFrozen(policy)).toBe(true);
    expect(Object.isFrozen(policy.allow)).toBe(true);
    input.allow.push('bash');
    expect(policy.allow).toEqual(['read', 'bash(git log*)']);
  });

  it('accepts an empty policy', () => {
    expect(validatePermissionPolicy({})).toEqual({});
  });

  it.each([
    [null, 'permissionPolicy', undefined],
    [['read'], 'permissionPolicy', undefined],
    [{ alow: ['read'] }, 'permissionPolicy.alow', undefined],
    [{ allow: 'read' }, 'permissionPolicy.allow', undefined],
    [{ ask: ['read', 3] }, 'permissionPolicy.ask[1]', undefined],
    [{ deny: ['read', 'bash(rm'] }, 'permissionPolicy.deny[1]', 'bash(rm'],
    [{ allow: [''] }, 'permissionPolicy.allow[0]', ''],
    [{ defaultDecision: 'yes' }, 'permissionPolicy.defaultDecision', undefined],
  ])('rejects %j naming %s', (value, field, rule) => {
    let caught: unknown;
    try {
      validatePermissionPolicy(value);
    } catch (error) {
      caught = error;
    }
    expect(CodeError.hasCode(caught, 'SESSION_CONFIGURATION_ERROR')).toBe(true);
    const details = (caught as CodeError).details;
    expect(details['field']).toBe(field);
    expect(details['rule']).toBe(rule);
    expect(details['reason']).toEqual(expect.any(String));
  });
});

describe('mergePermissionPolicies / strictestPermission: policy from several sources, strictest wins', () => {
  const bash = { toolName: 'bash', target: { kind: 'command', command: 'ls' } as PermissionTarget };
  it('an overlay cannot lift a deny, disable the policy, add allow rules or loosen the default', () => {
    const host = { deny: ['bash*'], ask: ['write'], allow: ['read'], defaultDecision: 'ask' } as const;
    expect(mergePermissionPolicies(host, { deny: [], allow: ['bash(*)'], defaultDecision: 'allow' })).toEqual({ deny: ['bash*'], ask: ['write'], allow: ['read'], defaultDecision: 'ask' });
    expect(mergePermissionPolicies(host, { enabled: false, deny: ['git*'] })).toEqual({ deny: ['bash*'], ask: ['write'], allow: ['read'], defaultDecision: 'ask' });
    expect(mergePermissionPolicies(host, { deny: ['git*'], ask: ['edit'], defaultDecision: 'deny' })).toEqual({ deny: ['bash*', 'git*'], ask: ['write', 'edit'], allow: ['read'], defaultDecision: 'deny' });
    expect(mergePermissionPolicies(undefined, { allow: ['bash(*)'] })).toEqual({ allow: ['bash(*)'] });
    expect(mergePermissionPolicies({ defaultDecision: 'allow' }, undefined)).toEqual({ defaultDecision: 'allow' });
  });
  it('strictestPermission takes the strictest decision of every policy, labelled by its source', () => {
    expect(strictestPermission([{ allow: ['bash(*)'], defaultDecision: 'allow' }, { deny: ['bash*'] }], bash)).toMatchObject({ decision: 'deny', reason: expect.stringMatching(/^parent session policy: /) });
    expect(strictestPermission([null, { ask: ['bash'] }], bash, () => 'host policy')).toMatchObject({ decision: 'ask', reason: expect.stringMatching(/^host policy: /) });
    expect(strictestPermission([null], bash)).toMatchObject({ decision: 'allow' });
  });
});
