import { describe, expect, it } from 'vitest';
import { createProgramTool } from '../src/index.js';
import type { ProgramMetadata } from '../src/index.js';
import { runProgram } from '../src/index.js';
import { programWorkerPool } from '../src/program-worker-pool.js';
import { createFakeContext } from './fake-context.js';

const TIMEOUT_MS = 1_000;
/**
 * Backstop only: the run must END, well before the test's own timeout (20 s). The elapsed time
 * includes starting the worker and its QuickJS module, which a loaded 2-core CI machine has taken
 * 4.9 s to do; the deadline's precision (timeout + 500 ms by design: the host terminates a worker
 * that does not stop within 100 ms) is measured and printed by hard-deadline.test.ts, not asserted.
 */
const END_BOUND_MS = TIMEOUT_MS + 9_000;
/**
 * Deadline of the cases that test another bound (heap, stack): long enough that a loaded
 * machine reaches that bound first; the deadline is only the backstop there.
 */
const OTHER_LIMIT_TIMEOUT_MS = 10_000;

let echoRuns = 0;
const tools = {
  echo: (args: Record<string, unknown>) => {
    echoRuns += 1;
    return { output: String(args['text'] ?? '') };
  },
};

async function run(source: string, options: { inputs?: unknown; maxToolCalls?: number; maxOutputBytes?: number; timeoutMs?: number } = {}) {
  const fake = createFakeContext(tools);
  const started = performance.now();
  const result = await createProgramTool().execute(
    {
      type: 'script',
      source,
      ...(options.inputs === undefined ? {} : { inputs: options.inputs }),
      limits: { timeoutMs: options.timeoutMs ?? TIMEOUT_MS, ...(options.maxToolCalls === undefined ? {} : { maxToolCalls: options.maxToolCalls }), ...(options.maxOutputBytes === undefined ? {} : { maxOutputBytes: options.maxOutputBytes }) },
    },
    fake.context,
  );
  const elapsed = performance.now() - started;
  const metadata = (result.metadata ?? {}) as { program: ProgramMetadata; script_result?: unknown };
  return { result, elapsed, program: metadata.program, scriptResult: metadata.script_result, ...fake };
}

/** The host is unharmed: a normal program still works afterwards. */
async function expectHealthy(): Promise<void> {
  const after = await run('export default async function run(ctx, inputs) { return { echoed: await ctx.tool("echo", { text: inputs.t }), n: inputs.n + 1 } }', { inputs: { t: 'ok', n: 41 } });
  expect(after.result.exitCode ?? 0).toBe(0);
  expect(after.scriptResult).toMatchObject({ echoed: { output: 'ok', exitCode: 0 }, n: 42 });
}

async function expectFailure(source: string, code: string, options: Parameters<typeof run>[1] = {}) {
  const outcome = await run(source, options);
  expect(outcome.result.exitCode, outcome.result.output).toBe(1);
  expect(outcome.program.error?.code, outcome.result.output).toBe(code);
  expect(outcome.elapsed).toBeLessThan(END_BOUND_MS - TIMEOUT_MS + (options.timeoutMs ?? TIMEOUT_MS));
  await expectHealthy();
  return outcome;
}

describe('sandbox abuse', () => {
  it('for(;;){} ends with PROGRAM_TIMEOUT carrying the limit', async () => {
    const { program, result } = await expectFailure('export default function run() { for(;;){} }', 'PROGRAM_TIMEOUT');
    expect(program.error?.details).toEqual({ limit: TIMEOUT_MS });
    expect(result.errorKind).toMatchObject({ type: 'timeout', op: 'program' });
  });

  it('an infinite loop that catches the interrupt and retries still ends', async () => {
    await expectFailure('export default function run() { let n = 0; for(;;){ try { for(;;){} } catch (e) { n++ } } }', 'PROGRAM_TIMEOUT');
  });

  it('a never-resolving await with nothing pending ends at once (PROGRAM_DEADLOCK), not at the deadline', async () => {
    await expectFailure('export default async function run() { await new Promise(() => {}) }', 'PROGRAM_DEADLOCK');
  });

  it('an endless microtask chain ends', async () => {
    await expectFailure('export default async function run() { for(;;) await null }', 'PROGRAM_TIMEOUT');
  });

  it('a memory bomb ends with PROGRAM_MEMORY_LIMIT', async () => {
    const { program } = await expectFailure('export default function run() { const a = []; for(;;) a.push("x".repeat(1e6) + a.length) }', 'PROGRAM_MEMORY_LIMIT', { timeoutMs: OTHER_LIMIT_TIMEOUT_MS });
    expect(program.error?.details).toEqual({ limit: 64 * 1024 * 1024 });
  });

  it('a memory bomb that catches OOM and retries still ends with PROGRAM_MEMORY_LIMIT', async () => {
    await expectFailure('export default function run() { const a = []; for(;;){ try { a.push(new Array(1000).fill(a.length)) } catch (e) { a.length = a.length } } }', 'PROGRAM_MEMORY_LIMIT', { timeoutMs: OTHER_LIMIT_TIMEOUT_MS });
  });

  it('deep recursion ends with PROGRAM_STACK_OVERFLOW', async () => {
    await expectFailure('export default function run() { const f = (n) => f(n + 1) + 1; return f(0) }', 'PROGRAM_STACK_OVERFLOW', { timeoutMs: OTHER_LIMIT_TIMEOUT_MS });
  });

  it('JSON.parse of a deeply nested string ends with PROGRAM_STACK_OVERFLOW', async () => {
    await expectFailure('export default function run() { return JSON.parse("[".repeat(1e6) + "]".repeat(1e6)) }', 'PROGRAM_STACK_OVERFLOW', { timeoutMs: OTHER_LIMIT_TIMEOUT_MS });
  });

  it('stringifying a deeply nested result ends with a typed failure, the VM replaced if needed', async () => {
    const { program } = await run('export default function run() { let o = []; for (let i = 0; i < 1e5; i++) o = [o]; return o }', { timeoutMs: OTHER_LIMIT_TIMEOUT_MS });
    // Which bound is hit first depends on the worker's native stack: QuickJS's own stack
    // limit, the host stack beneath WebAssembly (module poisoned, worker replaced), or the
    // heap filling with the pretty-printed text.
    expect(['PROGRAM_STACK_OVERFLOW', 'PROGRAM_INVALID_RESULT', 'PROGRAM_MEMORY_LIMIT']).toContain(program.error?.code);
    await expectHealthy();
  });

  it('require, process, fetch, timers and import() are not reachable', async () => {
    const source = `
      export default async function run(ctx) {
        let dynamicImport;
        try { await import('fs'); dynamicImport = 'loaded' } catch (e) { dynamicImport = e.message }
        const names = Object.getOwnPropertyNames(globalThis);
        return {
          types: [typeof require, typeof process, typeof fetch, typeof setTimeout, typeof setInterval, typeof queueMicrotask, typeof WebAssembly, typeof std, typeof os, typeof Deno, typeof Bun],
          dynamicImport,
          hostFunctionsHidden: !names.some((name) => /host|a3s/i.test(name)),
          ctxKeys: Object.keys(ctx).sort(),
          ctxFrozen: Object.isFrozen(ctx),
        };
      }`;
    const { scriptResult } = await run(source);
    expect(scriptResult).toEqual({
      types: Array(11).fill('undefined'),
      dynamicImport: expect.stringContaining('imports are not available'),
      hostFunctionsHidden: true,
      ctxKeys: ['bash', 'git', 'glob', 'grep', 'ls', 'read', 'readFile', 'tool'],
      ctxFrozen: true,
    });
  });

  it('a static import is refused', async () => {
    const { program } = await run('import fs from "fs"; export default () => fs');
    expect(['PROGRAM_SYNTAX_ERROR', 'PROGRAM_RUNTIME_ERROR']).toContain(program.error?.code);
    expect(program.error?.message).toContain('imports are not available');
  });

  it('mutating prototypes of values passed in has no effect on the host', async () => {
    const inputs = { list: [1, 2], nested: { a: 1 } };
    const source = `
      export default async function run(ctx, inputs) {
        Object.prototype.polluted = 'yes';
        Array.prototype.push = () => 'hijacked';
        Object.getPrototypeOf(inputs).constructor.prototype.evil = true;
        inputs.list.__proto__.map = null;
        inputs.nested.a = 99;
        const echoed = await ctx.tool('echo', { text: 'still works' });
        JSON.stringify = () => '"forged"';
        return { a: inputs.nested.a, echoed: echoed.output };
      }`;
    const { scriptResult } = await run(source, { inputs });
    expect(scriptResult).toEqual({ a: 99, echoed: 'still works' });
    expect(inputs).toEqual({ list: [1, 2], nested: { a: 1 } });
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(({} as Record<string, unknown>)['evil']).toBeUndefined();
    expect([1].map((x) => x + 1)).toEqual([2]);
    await expectHealthy();
  });

  it('a flood of ctx calls past maxToolCalls ends with PROGRAM_TOOL_CALL_LIMIT; the extra calls never run', async () => {
    echoRuns = 0;
    const { program } = await expectFailure(
      'export default async function run(ctx) { for(;;){ try { await ctx.tool("echo", { text: "x" }) } catch (e) {} } }',
      'PROGRAM_TOOL_CALL_LIMIT',
      { maxToolCalls: 5 },
    );
    expect(program.error?.details).toEqual({ limit: 5 });
    expect(program.tool_calls).toHaveLength(5);
    expect(echoRuns).toBe(5 + 1);
  });

  it('unawaited ctx calls in a sync loop are bounded by maxToolCalls too', async () => {
    echoRuns = 0;
    await expectFailure('export default function run(ctx) { for(;;) ctx.tool("echo", { text: "x" }) }', 'PROGRAM_TOOL_CALL_LIMIT', { maxToolCalls: 3 });
    expect(echoRuns).toBeLessThanOrEqual(3 + 1);
  });

  it('a huge return value fails with PROGRAM_OUTPUT_LIMIT; the full result is kept as an artifact', async () => {
    const outcome = await expectFailure('export default () => ({ big: "y".repeat(200000) })', 'PROGRAM_OUTPUT_LIMIT', { maxOutputBytes: 1024 });
    const uri = outcome.program.error?.details['artifact'] as string;
    expect(outcome.program.error?.details).toMatchObject({ limit: 1024, bytes: expect.any(Number) });
    expect(outcome.result.artifacts).toEqual([uri]);
    expect(JSON.parse(outcome.artifacts.get(uri) ?? '')).toEqual({ big: 'y'.repeat(200000) });
    expect(Buffer.byteLength(outcome.result.output)).toBeLessThanOrEqual(1024);
  });

  it('throwing a non-Error value reports PROGRAM_RUNTIME_ERROR', async () => {
    const { program } = await expectFailure('export default async function run() { throw { code: 42 } }', 'PROGRAM_RUNTIME_ERROR');
    expect(program.error?.message).toContain('non-error value thrown: {"code":42}');
    const primitive = await run('export default function run() { throw 7 }');
    expect(primitive.program.error?.message).toContain('non-error value thrown: 7');
  });

  it('a result that is not JSON-serialisable fails with PROGRAM_INVALID_RESULT', async () => {
    await expectFailure('export default () => ({ n: 10n })', 'PROGRAM_INVALID_RESULT');
  });

  it('normal runs dispose every handle: the worker and its module are reused, never replaced', async () => {
    const source = 'export default async (ctx, inputs) => { const r = await Promise.all([ctx.tool("echo", { text: "a" }), ctx.tool("echo", { text: "b" })]); console.log(r.length); return inputs.i }';
    const generations = new Set<number>();
    await expectHealthy();
    const started = programWorkerPool.stats().started;
    for (let index = 0; index < 20; index += 1) {
      const outcome = await runProgram({
        source,
        inputs: { i: index },
        limits: { timeoutMs: 5_000, maxToolCalls: 2, maxOutputBytes: 1024 },
        allowedTools: new Set(['echo']),
        invoke: async (tool, args) => ({ name: tool, output: String((args as { text: string }).text), exitCode: 0 }),
      });
      expect(outcome.encodedResult).toBe(`j${index}`);
      expect(outcome.logs).toEqual([{ level: 'log', message: '2' }]);
      // A leaked handle makes JS_FreeRuntime abort the module, which would retire the worker.
      expect(outcome.disposedCleanly).toBe(true);
      generations.add(outcome.moduleGeneration);
    }
    expect(generations.size).toBe(1);
    expect(programWorkerPool.stats().started).toBe(started);
  });
});
