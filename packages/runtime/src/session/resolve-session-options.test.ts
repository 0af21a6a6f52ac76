import { CodeError, MemorySessionStore } from '@a3s-lab/code-core';
import { describe, expect, it } from 'vitest';
import { MemoryWorkspaceBackend } from '@a3s-lab/code-core/testing';
import { SESSION_OPTION_DEFAULTS, SESSION_OPTION_NAMES, resolveSessionOptions } from './resolve-session-options.js';

/** One valid value for every accepted option. */
const VALID: Record<string, unknown> = {
  model: 'anthropic/claude-sonnet-4-20250514',
  planningMode: 'enabled',
  planning: false,
  toolTimeoutMs: 120_000,
  llmApiTimeoutMs: 60_000,
  circuitBreakerThreshold: 4,
  duplicateToolCallThreshold: 5,
  maxToolRounds: 10,
  manualDelegationEnabled: true,
  autoCompact: true,
  autoCompactThreshold: 0.75,
  maxContextTokens: 128_000,
  deferMcpTools: false,
  deferMcpToolsThreshold: 0.05,
  autoDelegation: { enabled: true, maxTasks: 4 },
  maxParallelTasks: 8,
  autoParallel: false,
  subagentConfirmationInheritance: 'inherit_parent',
  workerAgents: [{ name: 'w', description: 'worker', kind: 'implementer', model: 'openai/gpt-4o', maxSteps: 24, prompt: 'p', permissions: {}, confirmationInheritance: 'deny_on_ask' }],
  permissionPolicy: { allow: ['read'], ask: ['bash*'], deny: ['bash(rm *)'], defaultDecision: 'allow' },
  confirmationPolicy: { enabled: true, defaultTimeoutMs: 30_000, timeoutAction: 'auto_approve', yoloLanes: ['query', 'write'] },
  workspaceBackend: new MemoryWorkspaceBackend(),
  workspaceOverlay: (backend: unknown) => backend,
  sessionStore: new MemorySessionStore(),
  projectInstructions: false,
  maxParseRetries: 1,
  continuationEnabled: true,
  maxContinuationTurns: 2,
  maxExecutionTimeMs: 60_000,
  skillDirs: ['/skills'],
  inlineSkills: [{ name: 'tidy', description: 'Tidy files', content: 'Keep it tidy.', kind: 'instruction', allowedTools: ['read'], tags: ['style'] }],
  sessionId: 'schedule:nightly',
  autoSave: true,
  artifactStoreLimits: { maxArtifacts: 64, maxBytes: 8 * 1024 * 1024 },
  retentionLimits: { maxRuns: 10, maxEventsPerRun: 1000 },
  systemPrompt: 'You are a test.',
  instructions: '',
  budget: { maxToolCalls: 10, maxTokens: 1000, maxWallTimeMs: 60_000, softThresholds: [0.5, 0.9] },
  maxOutputTokens: 4096,
  webFetch: { allowHosts: ['127.0.0.1', 'docs.internal:8443'], maxResponseBytes: 1_048_576, timeoutMs: 10_000, maxRedirects: 3 },
  telemetry: { enabled: true, captureContent: false, tracerProvider: { getTracer: () => undefined }, meterProvider: { getMeter: () => undefined } },
  sandbox: { mode: 'required', network: { allow: ['registry.npmjs.org:443'] }, allowWrite: ['/var/cache/x'], denyRead: ['~/.gnupg'], autoAllowBash: false },
};

/** [field value, the field the error must name]. */
const INVALID: readonly [string, unknown, string][] = [
  ['model', 'claude', 'model'],
  ['model', 'anthropic/', 'model'],
  ['planningMode', 'always', 'planningMode'],
  ['planning', 'yes', 'planning'],
  ['toolTimeoutMs', 0, 'toolTimeoutMs'],
  ['toolTimeoutMs', 1.5, 'toolTimeoutMs'],
  ['llmApiTimeoutMs', -1, 'llmApiTimeoutMs'],
  ['circuitBreakerThreshold', 0, 'circuitBreakerThreshold'],
  ['duplicateToolCallThreshold', '3', 'duplicateToolCallThreshold'],
  ['maxToolRounds', 0, 'maxToolRounds'],
  ['manualDelegationEnabled', 1, 'manualDelegationEnabled'],
  ['autoCompact', 'true', 'autoCompact'],
  ['autoCompactThreshold', 0, 'autoCompactThreshold'],
  ['autoCompactThreshold', 1.2, 'autoCompactThreshold'],
  ['maxContextTokens', 0, 'maxContextTokens'],
  ['deferMcpTools', 'off', 'deferMcpTools'],
  ['deferMcpToolsThreshold', -0.1, 'deferMcpToolsThreshold'],
  ['deferMcpToolsThreshold', 1.5, 'deferMcpToolsThreshold'],
  ['autoDelegation', { enabled: 'x' }, 'autoDelegation.enabled'],
  ['autoDelegation', { maxTasks: 33 }, 'autoDelegation.maxTasks'],
  ['autoDelegation', { bogus: 1 }, 'autoDelegation.bogus'],
  ['maxParallelTasks', 0, 'maxParallelTasks'],
  ['autoParallel', null, 'autoParallel'],
  ['subagentConfirmationInheritance', 'always', 'subagentConfirmationInheritance'],
  ['workerAgents', {}, 'workerAgents'],
  ['workerAgents', [{ name: 'w', description: 'd', kind: 'boss' }], 'workerAgents[0].kind'],
  ['workerAgents', [{ description: 'd', kind: 'custom' }], 'workerAgents[0].name'],
  ['workerAgents', [{ name: 'w', description: 'd', kind: 'custom' }, { name: 'w', description: 'e', kind: 'custom' }], 'workerAgents[1].name'],
  ['workerAgents', [{ name: 'w', description: 'd', kind: 'custom', confirmationInheritance: 'ask' }], 'workerAgents[0].confirmationInheritance'],
  ['permissionPolicy', { allow: 'read' }, 'permissionPolicy.allow'],
  ['permissionPolicy', { deny: [''] }, 'permissionPolicy.deny[0]'],
  ['permissionPolicy', { deny: ['bash(git *'] }, 'permissionPolicy.deny[0]'],
  ['permissionPolicy', { defaultDecision: 'maybe' }, 'permissionPolicy.defaultDecision'],
  ['permissionPolicy', { allowed: [] }, 'permissionPolicy.allowed'],
  ['confirmationPolicy', { enabled: 'no' }, 'confirmationPolicy.enabled'],
  ['confirmationPolicy', { defaultTimeoutMs: 0 }, 'confirmationPolicy.defaultTimeoutMs'],
  ['confirmationPolicy', { timeoutAction: 'approve' }, 'confirmationPolicy.timeoutAction'],
  ['confirmationPolicy', { yoloLanes: ['everything'] }, 'confirmationPolicy.yoloLanes[0]'],
  ['confirmationPolicy', { yoloLanes: 'query' }, 'confirmationPolicy.yoloLanes'],
  ['workspaceBackend', {}, 'workspaceBackend'],
  ['workspaceOverlay', {}, 'workspaceOverlay'],
  ['sessionStore', 'memory', 'sessionStore'],
  ['sessionStore', {}, 'sessionStore'],
  ['sessionId', 'has space', 'sessionId'],
  ['sessionId', 'x'.repeat(129), 'sessionId'],
  ['autoSave', 'on', 'autoSave'],
  ['artifactStoreLimits', { maxBytes: 10 }, 'artifactStoreLimits.maxBytes'],
  ['artifactStoreLimits', { maxArtifacts: 0 }, 'artifactStoreLimits.maxArtifacts'],
  ['retentionLimits', { maxEventsPerRun: 1 }, 'retentionLimits.maxEventsPerRun'],
  ['retentionLimits', { maxRuns: 0 }, 'retentionLimits.maxRuns'],
  ['systemPrompt', '', 'systemPrompt'],
  ['instructions', 5, 'instructions'],
  ['budget', { maxToolCalls: 0 }, 'budget.maxToolCalls'],
  ['budget', { softThresholds: [1] }, 'budget.softThresholds[0]'],
  ['budget', { maxTools: 1 }, 'budget.maxTools'],
  ['maxOutputTokens', 0, 'maxOutputTokens'],
  ['webFetch', { allowHosts: '127.0.0.1' }, 'webFetch.allowHosts'],
  ['webFetch', { allowHost: ['127.0.0.1'] }, 'webFetch.allowHost'],
  ['webFetch', { maxRedirects: 50 }, 'webFetch.maxRedirects'],
  ['telemetry', { capture_content: true }, 'telemetry.capture_content'],
  ['telemetry', { enabled: 'yes' }, 'telemetry.enabled'],
  ['telemetry', { tracerProvider: {} }, 'telemetry.tracerProvider'],
  ['telemetry', { meterProvider: null }, 'telemetry.meterProvider'],
  ['sandbox', { mode: 'disabled' }, 'sandbox.mode'],
  ['sandbox', { network: 'some' }, 'sandbox.network'],
  ['sandbox', { network: { allow: [] } }, 'sandbox.network'],
  ['sandbox', { dangerouslyDisable: true }, 'sandbox.dangerouslyDisable'],
  ['sandbox', { allowWrite: '/x' }, 'sandbox.allowWrite'],
  ['temperatur', 0.2, 'temperatur'],
];

function errorOf(options: unknown): CodeError {
  try {
    resolveSessionOptions(options);
  } catch (error) {
    if (CodeError.isInstance(error)) return error;
    throw error;
  }
  throw new Error(`accepted: ${JSON.stringify(options)}`);
}

describe('resolveSessionOptions', () => {
  it('the valid table covers every accepted option', () => {
    expect(Object.keys(VALID).sort()).toEqual([...SESSION_OPTION_NAMES].sort());
  });

  it.each(Object.entries(VALID))('accepts %s with a valid value', (field, value) => {
    const resolved = resolveSessionOptions({ [field]: value });
    expect((resolved as unknown as Record<string, unknown>)[field]).toBe(value);
  });

  it('accepts every valid value at once', () => {
    expect(() => resolveSessionOptions(VALID)).not.toThrow();
  });

  it.each(INVALID)('rejects %s = %j naming %s', (field, value, named) => {
    const error = errorOf({ [field]: value });
    expect(error.code).toBe('SESSION_CONFIGURATION_ERROR');
    expect(error.details['field']).toBe(named);
    expect(error.message).toContain(named);
  });

  it('rejects a non-object options value; undefined and null mean no options', () => {
    expect(errorOf([]).details['field']).toBe('options');
    expect(errorOf('fast').details['field']).toBe('options');
    expect(resolveSessionOptions(undefined).maxToolRounds).toBe(50);
    expect(resolveSessionOptions(null).maxToolRounds).toBe(50);
  });

  it('an unknown field lists the known names; a field set to undefined is ignored', () => {
    expect(errorOf({ maxToolRound: 3 }).details['known']).toEqual(SESSION_OPTION_NAMES);
    expect(resolveSessionOptions({ maxToolRounds: undefined }).maxToolRounds).toBe(50);
  });

  it('applies the REFERENCE.md defaults', () => {
    const resolved = resolveSessionOptions({});
    expect(resolved).toEqual({ ...SESSION_OPTION_DEFAULTS });
    expect(resolved).toMatchObject({
      planningMode: 'auto',
      circuitBreakerThreshold: 3,
      duplicateToolCallThreshold: 3,
      maxToolRounds: 50,
      autoCompactThreshold: 0.8,
      maxContextTokens: 200_000,
      maxParallelTasks: 8,
    });
    expect(resolved.llmApiTimeoutMs).toBeUndefined();
  });

  it('maps the legacy planning boolean; an explicit planningMode wins', () => {
    expect(resolveSessionOptions({ planning: true }).planningMode).toBe('enabled');
    expect(resolveSessionOptions({ planning: false }).planningMode).toBe('disabled');
    expect(resolveSessionOptions({ planning: true, planningMode: 'disabled' }).planningMode).toBe('disabled');
    expect(resolveSessionOptions({ planningMode: 'auto' }).planningMode).toBe('auto');
  });
});
