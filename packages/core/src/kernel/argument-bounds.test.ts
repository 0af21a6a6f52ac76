import { describe, expect, it } from 'vitest';
import { makeKernel } from '../../test/kernel-kit.js';
import type { Tool } from '../tools/tool.js';
import { parseToolCallInput } from '../llm/parse-tool-call-input.js';
import { MAX_ARGUMENT_CHARS, MAX_ARGUMENT_DEPTH, MAX_ARGUMENT_NODES } from './argument-bounds.js';

/** `levels` nested arrays, built without recursion. */
function deepArray(levels: number): unknown {
  let value: unknown = 'leaf';
  for (let level = 0; level < levels; level += 1) value = [value];
  return value;
}

function deepObject(levels: number): unknown {
  let value: unknown = 'leaf';
  for (let level = 0; level < levels; level += 1) value = { next: value };
  return value;
}

function cyclic(): unknown {
  const node: Record<string, unknown> = { name: 'loop' };
  node['self'] = node;
  return node;
}

const PAYLOADS: Array<[string, () => Record<string, unknown>]> = [
  ['100k nested arrays', () => ({ value: deepArray(100_000) })],
  ['20k nested objects', () => ({ value: deepObject(20_000) })],
  ['just past the depth bound', () => ({ value: deepArray(MAX_ARGUMENT_DEPTH + 1) })],
  ['a cycle', () => ({ value: cyclic() })],
  ['a huge string', () => ({ value: 'x'.repeat(MAX_ARGUMENT_CHARS + 1) })],
  ['too many values', () => ({ value: new Array<number>(MAX_ARGUMENT_NODES + 1).fill(1) })],
];

function anyTool(calls: unknown[]): Tool {
  return {
    name: 'take',
    description: 'takes anything',
    parameters: { type: 'object' },
    async execute(args) {
      calls.push(args);
      return { output: 'ran' };
    },
  };
}

describe('argument bounds at the validation stage', () => {
  it.each(PAYLOADS)('%s is an invalid_argument that never reaches the tool', async (_name, make) => {
    const calls: unknown[] = [];
    const { kernel } = makeKernel([anyTool(calls)]);
    for (const origin of ['agent', 'host-direct'] as const) {
      const result = await kernel.invoke({ toolName: 'take', args: make(), origin });
      expect(result.exitCode).toBe(1);
      expect(result.errorKind?.type).toBe('invalid_argument');
    }
    expect(calls).toEqual([]);
  });

  it('arguments inside the bounds still run', async () => {
    const calls: unknown[] = [];
    const { kernel } = makeKernel([anyTool(calls)]);
    const result = await kernel.invoke({ toolName: 'take', args: { value: deepArray(MAX_ARGUMENT_DEPTH - 2), text: 'y'.repeat(1000) }, origin: 'agent' });
    expect(result.exitCode).toBe(0);
    expect(calls).toHaveLength(1);
  });
});

describe('argument bounds when a provider streams tool input', () => {
  it.each([
    ['100k nested arrays', `{"a":${'['.repeat(100_000)}${']'.repeat(100_000)}}`],
    ['20k nested objects', `${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}`],
    ['just past the depth bound', `{"a":${'['.repeat(MAX_ARGUMENT_DEPTH)}${']'.repeat(MAX_ARGUMENT_DEPTH)}}`],
  ])('%s is invalid input, never a value the loop walks', (_name, json) => {
    const parsed = parseToolCallInput(json);
    expect(parsed.input).toBeUndefined();
    expect(parsed.invalidInput).toBeDefined();
    expect(parsed.invalidInput!.length).toBeLessThanOrEqual(1024);
  });

  it('ordinary input still parses', () => {
    expect(parseToolCallInput('{"file_path":"a.ts","limit":5}')).toEqual({ input: { file_path: 'a.ts', limit: 5 } });
  });
});
