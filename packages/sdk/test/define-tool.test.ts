// defineTool: the handler's argument type is read from the tool's JSON Schema, and the model's
// call (scripted server, real provider client, real kernel validation) reaches it typed.
import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import { textResponse, toolCallResponse } from '@a3s-lab/code-testing';
import { defineTool } from '../src/index.js';
import type { Tool, ToolContext } from '../src/index.js';
import { startHarness } from './harness.js';
import type { Harness } from './harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
});

const seen: unknown[] = [];
const wordCount = defineTool({
  name: 'word_count',
  description: 'Counts the words of a workspace file, optionally only the first `limit` words.',
  parameters: {
    type: 'object',
    required: ['path'],
    properties: { path: { type: 'string', minLength: 1 }, limit: { type: 'integer', minimum: 1 }, unit: { enum: ['words', 'lines'] } },
    additionalProperties: false,
  },
  async execute(args, context) {
    expectTypeOf(args).toEqualTypeOf<{ path: string; limit?: number; unit?: 'words' | 'lines' }>();
    seen.push(args);
    const file = await context.workspace.readFile({ path: args.path, abortSignal: context.abortSignal });
    const text = file === null ? '' : new TextDecoder().decode(file.content);
    const parts = args.unit === 'lines' ? text.split('\n').filter(Boolean) : text.split(/\s+/).filter(Boolean);
    return { output: String(Math.min(parts.length, args.limit ?? Number.POSITIVE_INFINITY)) };
  },
});

describe('defineTool', () => {
  it('infers the argument type from the schema, and the type cannot disagree with it', () => {
    expectTypeOf(wordCount).toExtend<Tool<{ path: string; limit?: number; unit?: 'words' | 'lines' }>>();
    const parameters = { type: 'object', required: ['query'], properties: { query: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } } } } as const;
    defineTool({
      name: 'search_notes',
      description: 'd',
      parameters,
      async execute(args) {
        expectTypeOf(args.query).toEqualTypeOf<string>();
        expectTypeOf(args.tags).toEqualTypeOf<string[] | undefined>();
        return { output: args.query };
      },
    });
    defineTool({
      name: 'bad_handler',
      description: 'd',
      parameters: { type: 'object', required: ['path'], properties: { path: { type: 'string' } }, additionalProperties: false },
      // @ts-expect-error the handler says `path` is a number, the schema says string
      execute: async (args: { path: number }, _context: ToolContext) => ({ output: String(args.path) }),
    });
    defineTool({
      name: 'extra_field',
      description: 'd',
      parameters: { type: 'object', properties: { path: { type: 'string' } }, additionalProperties: false },
      async execute(args) {
        // @ts-expect-error `other` is not in the schema
        return { output: String(args.other) };
      },
    });
    defineTool({
      name: 'optional_field',
      description: 'd',
      parameters: { type: 'object', properties: { path: { type: 'string' } }, additionalProperties: false },
      async execute(args) {
        // @ts-expect-error `path` is not required, so it may be undefined
        const path: string = args.path;
        return { output: path };
      },
    });
    defineTool({
      name: 'typed_hooks',
      description: 'd',
      parameters: { type: 'object', required: ['command'], properties: { command: { type: 'string' } }, additionalProperties: false },
      permissionTarget: (args) => ({ kind: 'command', command: args.command }),
      // @ts-expect-error `timeout` is not an argument of this tool
      timeoutMs: (args) => args.timeout,
      execute: async (args) => ({ output: args.command }),
    });
    // @ts-expect-error a tool's parameters are an object schema
    defineTool({ name: 'not_object', description: 'd', parameters: { type: 'string' }, execute: async () => ({ output: '' }) });
  });

  it('runs a model call with the typed arguments; invalid arguments never reach the handler', async () => {
    seen.length = 0;
    h = await startHarness('anthropic', [toolCallResponse('word_count', { path: 'notes.txt', limit: 2 }), toolCallResponse('word_count', { path: 'notes.txt', limit: '2' }), textResponse('done')], { 'notes.txt': 'one two three\n' });
    const session = await h.agent.sessionAsync(h.dir);
    session.registerTool(wordCount);
    const results: { name: string; exitCode: number; output: string }[] = [];
    const stream = await session.stream('count the words');
    for await (const event of stream) if (event.type === 'tool_end') results.push({ name: event.toolName, exitCode: event.exitCode, output: event.payload.output });
    await stream.result;
    expect(results[0]).toEqual({ name: 'word_count', exitCode: 0, output: '2' });
    expect(results[1]?.exitCode).toBe(1);
    expect(results[1]?.output).toMatch(/limit/);
    expect(seen).toEqual([{ path: 'notes.txt', limit: 2 }]);
  });
});
