import { describe, expect, it } from 'vitest';
import { createProgramTool, runProgram } from '../src/index.js';
import type { ProgramMetadata } from '../src/index.js';
import type { FakeTool } from './fake-context.js';
import { createFakeContext } from './fake-context.js';

/** Generous: these cases test what crosses the worker boundary, not the clock. */
const TIMEOUT_MS = 10_000;

async function run(tools: Record<string, FakeTool>, source: string, extra: { inputs?: unknown; allowed_tools?: string[]; limits?: Record<string, number> } = {}) {
  const fake = createFakeContext(tools);
  const result = await createProgramTool().execute({ type: 'script', source, ...extra, limits: { timeoutMs: TIMEOUT_MS, ...extra.limits } }, fake.context);
  const metadata = (result.metadata ?? {}) as { program: ProgramMetadata; script_result?: unknown };
  return { result, program: metadata.program, scriptResult: metadata.script_result, ...fake };
}

describe('the worker boundary', () => {
  it('tool metadata holding a BigInt, a cycle or a function reaches the script as JSON; the VM is not failed', async () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic['self'] = cyclic;
    const tools: Record<string, FakeTool> = {
      big: () => ({ output: 'b', metadata: { n: 10n } as Record<string, unknown> }),
      cyc: () => ({ output: 'c', metadata: cyclic }),
      mixed: () => ({ output: 'm', metadata: { f: () => 1, n: 2n, ok: 'yes' } as Record<string, unknown> }),
    };
    const { result, scriptResult } = await run(
      tools,
      `export default async (ctx) => {
        const big = await ctx.tool('big', {});
        const cyc = await ctx.tool('cyc', {});
        const mixed = await ctx.tool('mixed', {});
        return { big: big.metadata, cyc: cyc.metadata.a, cycSelf: typeof cyc.metadata.self, mixed: mixed.metadata, outputs: big.output + cyc.output + mixed.output };
      }`,
    );
    expect(result.exitCode ?? 0, result.output).toBe(0);
    expect(scriptResult).toMatchObject({ big: { n: '10' }, cyc: 1, cycSelf: 'string', mixed: { n: '2', ok: 'yes' }, outputs: 'bcm' });
  });

  it('a batch reaches only allow-listed tools: a child outside allowed_tools is refused and nothing runs', async () => {
    const tools: Record<string, FakeTool> = { batch: () => ({ output: 'batch ran' }), bash: () => ({ output: 'bash ran' }), read: () => ({ output: 'read ran' }) };
    const { result, scriptResult, calls } = await run(
      tools,
      `export default async (ctx) => {
        let refused = null;
        try { await ctx.tool('batch', { invocations: [{ tool: 'read', args: {} }, { tool: 'bash', args: { command: 'rm -rf /' } }] }); } catch (error) { refused = error.message; }
        const odd = await ctx.tool('batch', { invocations: [{ tool: 42, args: {} }] }).then(() => 'ran', (error) => error.message);
        const nested = await ctx.tool('batch', { invocations: [{ tool: 'program', args: { type: 'script', source: 'export default () => 1' } }] }).then(() => 'ran', (error) => error.message);
        const fine = await ctx.tool('batch', { invocations: [{ tool: 'read', args: {} }] });
        return { refused, odd, nested, fine: fine.output };
      }`,
      { allowed_tools: ['batch', 'read', 'program'] },
    );
    expect(result.exitCode ?? 0, result.output).toBe(0);
    const value = scriptResult as { refused: string | null; odd: string; nested: string; fine: string };
    expect(value.nested).toContain("tool 'program' can never be called from inside a program");
    expect(value.refused).toContain("'bash' is not allowed");
    expect(value.odd).not.toBe('ran');
    expect(value.fine).toBe('batch ran');
    expect(calls.map((call) => call.tool)).toEqual(['batch']);
  });

  it('every call a batch makes counts against maxToolCalls', async () => {
    const tools: Record<string, FakeTool> = { batch: () => ({ output: 'batch ran' }), read: () => ({ output: 'read ran' }) };
    const { program, calls } = await run(
      tools,
      `export default async (ctx) => {
        const invocations = [1, 2, 3].map(() => ({ tool: 'read', args: {} }));
        await ctx.tool('batch', { invocations });
        await ctx.tool('batch', { invocations });
        return 'two batches of three';
      }`,
      { limits: { maxToolCalls: 5 } },
    );
    expect(program.error?.code).toBe('PROGRAM_TOOL_CALL_LIMIT');
    expect(program.error?.details['limit']).toBe(5);
    expect(calls.map((call) => call.tool)).toEqual(['batch']);
  });

  it('inputs too large for the VM heap fail with PROGRAM_MEMORY_LIMIT, not a VM crash', async () => {
    const { program } = await run({}, 'export default async (ctx, inputs) => inputs.s.length', { inputs: { s: 'x'.repeat(80 * 1024 * 1024) } });
    expect(program.error?.code).toBe('PROGRAM_MEMORY_LIMIT');
    const after = await run({}, 'export default async (ctx, inputs) => inputs.n + 1', { inputs: { n: 1 } });
    expect(after.scriptResult).toBe(2);
  });

  it('a run ended at its deadline returns only after its nested call settled (a slow abort is waited for)', async () => {
    let settled = false;
    const slow: FakeTool = (_args, signal) =>
      new Promise((resolve) => {
        // A tool that needs a while to stop after its abort (a process group being killed).
        signal?.addEventListener('abort', () => setTimeout(() => { settled = true; resolve({ output: 'stopped', exitCode: 1 }); }, 600));
      });
    const { program } = await run({ slow }, 'export default async (ctx) => ctx.tool("slow", {})', { limits: { timeoutMs: 200 } });
    expect(program.error?.code).toBe('PROGRAM_TIMEOUT');
    expect(settled).toBe(true);
  });

  it('a call that reaches the host after the deadline never runs, even when the host was too busy to fire its timer', async () => {
    let sideEffects = 0;
    const started = Date.now();
    const busyUntil = (at: number): void => {
      while (Date.now() < started + at) {
        // The host thread is busy (a CPU-heavy tool elsewhere): timers and messages wait.
      }
    };
    const tools: Record<string, FakeTool> = {
      // Answers at 300 ms, then blocks the host thread until well past the 1000 ms deadline:
      // the script's next call is sent in time but reaches the host only after it.
      gate: () =>
        new Promise((resolve) => {
          setTimeout(() => resolve({ output: 'open' }), 300);
          setTimeout(() => busyUntil(1_600), 300);
        }),
      side: () => {
        sideEffects += 1;
        return { output: 'side effect' };
      },
    };
    const { program } = await run(tools, `export default async (ctx) => { await ctx.tool('gate', {}); return (await ctx.tool('side', {})).output }`, { limits: { timeoutMs: 1_000 } });
    expect(program.error?.code).toBe('PROGRAM_TIMEOUT');
    expect(sideEffects).toBe(0);
  });

  it('inputs JSON cannot hold are refused; __proto__ keys cross both ways as plain data', async () => {
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    for (const inputs of [cyclic, { n: 1n }]) {
      const { program, calls } = await run({}, 'export default async () => 1', { inputs });
      expect(program.error?.code).toBe('PROGRAM_INVALID_ARGUMENT');
      expect(calls).toEqual([]);
    }
    const seen: Array<Record<string, unknown>> = [];
    const tools: Record<string, FakeTool> = {
      echo: (args) => {
        seen.push(args);
        return { output: 'ok' };
      },
    };
    const { scriptResult } = await run(
      tools,
      `export default async (ctx, inputs) => {
        await ctx.tool('echo', JSON.parse('{"__proto__": {"command": "injected"}}'));
        return { own: Object.keys(inputs), protoIsObject: Object.getPrototypeOf(inputs) === Object.prototype, back: JSON.parse('{"__proto__": {"polluted": true}}') };
      }`,
      { inputs: JSON.parse('{"__proto__": {"polluted": true}}') as unknown },
    );
    const value = scriptResult as { own: string[]; protoIsObject: boolean; back: Record<string, unknown> };
    expect(value.own).toEqual(['__proto__']);
    expect(value.protoIsObject).toBe(true);
    expect(Object.getPrototypeOf(value.back)).toBe(Object.prototype);
    expect(Object.hasOwn(value.back, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(Object.getPrototypeOf(seen[0])).toBe(Object.prototype);
    expect(seen[0]?.['command']).toBeUndefined();
  });

  it('an invoke that throws synchronously fails that call inside the script; nothing escapes to the host', async () => {
    const outcome = await runProgram({
      source: `export default async (ctx) => { try { await ctx.tool('x', {}); return 'no error' } catch (error) { return error.message } }`,
      inputs: {},
      limits: { timeoutMs: TIMEOUT_MS, maxToolCalls: 5, maxOutputBytes: 4096 },
      allowedTools: new Set(['x']),
      invoke: () => {
        throw new Error('gateway exploded');
      },
    });
    expect(outcome.error).toBeUndefined();
    expect(outcome.encodedResult).toBe('sgateway exploded');
  });
});
