import { describe, expect, it } from 'vitest';
import { DEFAULT_TOOL_CAPABILITIES, READ_ONLY_TOOL_CAPABILITIES, canRunInParallel, resolveToolCapabilities, type ToolCapabilities } from './tool-capabilities.js';

describe('tool capabilities defaults', () => {
  it('default is the conservative set: nothing safe, parallelism 1, text', () => {
    expect(DEFAULT_TOOL_CAPABILITIES).toEqual({
      readOnly: false,
      idempotent: false,
      resumable: false,
      cancellationSafe: false,
      supportsPagination: false,
      maxParallelism: 1,
      outputKind: 'text',
    });
  });

  it('read-only preset may fan out', () => {
    expect(READ_ONLY_TOOL_CAPABILITIES).toEqual({
      readOnly: true,
      idempotent: true,
      resumable: false,
      cancellationSafe: true,
      supportsPagination: false,
      maxParallelism: 16,
      outputKind: 'text',
    });
  });

  it('presets are frozen so no caller can loosen them for everyone', () => {
    expect(Object.isFrozen(DEFAULT_TOOL_CAPABILITIES)).toBe(true);
    expect(Object.isFrozen(READ_ONLY_TOOL_CAPABILITIES)).toBe(true);
    expect(() => {
      (DEFAULT_TOOL_CAPABILITIES as { readOnly: boolean }).readOnly = true;
    }).toThrow(TypeError);
  });
});

describe('resolveToolCapabilities', () => {
  it('returns the default for a tool that declares nothing', () => {
    expect(resolveToolCapabilities(undefined)).toBe(DEFAULT_TOOL_CAPABILITIES);
    expect(resolveToolCapabilities({})).toEqual(DEFAULT_TOOL_CAPABILITIES);
  });

  it('fills only the fields the tool did not declare, in a new object', () => {
    const resolved = resolveToolCapabilities({ readOnly: true, outputKind: 'diff' });
    expect(resolved).toEqual({ ...DEFAULT_TOOL_CAPABILITIES, readOnly: true, outputKind: 'diff' });
    expect(resolved).not.toBe(DEFAULT_TOOL_CAPABILITIES);
    expect(DEFAULT_TOOL_CAPABILITIES.readOnly).toBe(false);
  });
});

describe('canRunInParallel', () => {
  const safe: ToolCapabilities = READ_ONLY_TOOL_CAPABILITIES;

  it('allows a group where every call is read-only, idempotent, cancellation-safe and parallel', () => {
    expect(canRunInParallel([safe])).toBe(true);
    expect(canRunInParallel([safe, { ...safe, maxParallelism: 2, outputKind: 'structured' }])).toBe(true);
  });

  it('refuses an empty group', () => {
    expect(canRunInParallel([])).toBe(false);
  });

  it.each<[string, Partial<ToolCapabilities>]>([
    ['not read-only', { readOnly: false }],
    ['not idempotent', { idempotent: false }],
    ['not cancellation-safe', { cancellationSafe: false }],
    ['parallelism 1', { maxParallelism: 1 }],
    ['parallelism 0', { maxParallelism: 0 }],
  ])('refuses a group with one call %s', (_label, override) => {
    expect(canRunInParallel([safe, { ...safe, ...override }, safe])).toBe(false);
  });

  it('refuses the conservative default', () => {
    expect(canRunInParallel([DEFAULT_TOOL_CAPABILITIES])).toBe(false);
  });

  it('ignores fields that do not bear on safety', () => {
    expect(canRunInParallel([{ ...safe, resumable: true, supportsPagination: true, outputKind: 'mixed' }])).toBe(true);
  });
});
