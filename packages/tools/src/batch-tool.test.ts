import { BudgetGuard, InvocationKernel, ToolRegistry } from '@a3s-lab/code-core/kernel';
import type { AgentEvent, AnyTool, PermissionPolicy, ToolCapabilities, ToolResult } from '@a3s-lab/code-core';
import type { InvocationKernelOptions } from '@a3s-lab/code-core/kernel';
import { MemoryWorkspaceBackend } from '@a3s-lab/code-core/testing';
import { describe, expect, it } from 'vitest';
import { shareBudget } from './batch-render.js';
import { BATCH_MAX_OUTPUT_BYTES, createBatchTool } from './batch-tool.js';
import { createBuiltinTools } from './builtin-tools.js';

const SAFE: Partial<ToolCapabilities> = { readOnly: true, idempotent: true, cancellationSafe: true, maxParallelism: 16 };

/**
 * A read-only test tool that records overlap: each call waits (up to `max_wait_ms`, default 2 s)
 * until `wait_for` calls have been running at once, so a fan-out is proven by the peak, and a
 * serial run cannot hang.
 */
function createProbe() {
  const state = { running: 0, peak: 0, started: [] as string[], waiters: [] as (() => void)[] };
  const tool: AnyTool = {
    name: 'probe',
    description: 'test probe',
    parameters: { type: 'object', additionalProperties: false, required: ['name'], properties: { name: { type: 'string' }, wait_for: { type: 'integer' }, max_wait_ms: { type: 'integer' }, block: { type: 'boolean' } } },
    capabilities: () => SAFE,
    async execute(args, context) {
      const { name, wait_for: waitFor = 1, max_wait_ms: maxWaitMs = 2000, block = false } = args as { name: string; wait_for?: number; max_wait_ms?: number; block?: boolean };
      state.started.push(name);
      state.running += 1;
      state.peak = Math.max(state.peak, state.running);
      for (const wake of state.waiters.splice(0)) wake();
      const deadline = Date.now() + maxWaitMs;
      while (state.peak < waitFor && Date.now() < deadline) {
        await new Promise<void>((resolve) => {
          state.waiters.push(resolve);
          setTimeout(resolve, 50);
        });
      }
      if (block) await new Promise<void>((resolve) => context.abortSignal.addEventListener('abort', () => resolve(), { once: true }));
      state.running -= 1;
      return { output: `probe ${name}` };
    },
  };
  return { tool, state };
}

function setup(options: { files?: Record<string, string>; policy?: PermissionPolicy; extra?: Partial<InvocationKernelOptions> } = {}) {
  const workspace = new MemoryWorkspaceBackend({ files: options.files ?? {} });
  const probe = createProbe();
  const events: AgentEvent[] = [];
  const kernel = new InvocationKernel({
    sessionId: 'batch-test',
    registry: new ToolRegistry([...createBuiltinTools(), probe.tool]),
    workspace,
    emit: (event) => events.push(event),
    ...(options.policy === undefined ? {} : { permissionPolicy: options.policy }),
    ...options.extra,
  });
  const batch = (args: Record<string, unknown>, extra: { toolId?: string; abortSignal?: AbortSignal } = {}): Promise<ToolResult> =>
    kernel.invoke({ toolName: 'batch', args, origin: 'agent', ...extra });
  return { kernel, workspace, probe, events, batch };
}

interface BatchMetadata {
  total: number;
  succeeded: number;
  failed: number[];
  mode: 'parallel' | 'serial';
  concurrency: number;
  results: { index: number; id: string; tool: string; step?: string; exit_code: number; bytes: number; error_kind?: { type: string }; truncated?: boolean; artifact?: string }[];
}

const meta = (result: ToolResult): BatchMetadata => (result.metadata as { batch: BatchMetadata }).batch;

describe('batch tool', () => {
  it('fans out read-only children (they overlap) and reports them in request order', async () => {
    const { batch, probe } = setup({ files: { 'src/a.ts': 'export const a = 1;\n', 'src/b.ts': 'const PermissionPolicy = 2;\n' } });
    const result = await batch({
      invocations: [
        { tool: 'probe', args: { name: 'p0', wait_for: 3 } },
        { tool: 'read', args: { file_path: 'src/a.ts' }, id: 'read-a', step: 'read a' },
        { tool: 'probe', args: { name: 'p1', wait_for: 3 } },
        { tool: 'grep', args: { pattern: 'PermissionPolicy', output_mode: 'files_with_matches' } },
        { tool: 'probe', args: { name: 'p2', wait_for: 3 } },
      ],
    });
    expect(result.exitCode).toBe(0);
    expect(result.errorKind).toBeUndefined();
    expect(probe.state.peak).toBe(3);
    const batchMeta = meta(result);
    expect(batchMeta).toMatchObject({ total: 5, succeeded: 5, failed: [], mode: 'parallel', concurrency: 5 });
    expect(batchMeta.results.map((r) => [r.index, r.id, r.tool])).toEqual([
      [0, '0', 'probe'],
      [1, 'read-a', 'read'],
      [2, '2', 'probe'],
      [3, '3', 'grep'],
      [4, '4', 'probe'],
    ]);
    expect(batchMeta.results[1]).toMatchObject({ step: 'read a', exit_code: 0 });
    const output = result.output;
    expect(output.indexOf('[0] probe: ok')).toBeLessThan(output.indexOf('[1] read id=read-a step="read a": ok'));
    expect(output).toContain('export const a = 1;');
    expect(output).toContain('src/b.ts');
  });

  it('bounds concurrency by max_concurrency', async () => {
    const { batch, probe } = setup();
    const invocations = Array.from({ length: 4 }, (_, index) => ({ tool: 'probe', args: { name: `p${index}`, wait_for: 2 } }));
    const result = await batch({ invocations, max_concurrency: 2 });
    expect(meta(result)).toMatchObject({ mode: 'parallel', concurrency: 2, succeeded: 4 });
    expect(probe.state.peak).toBe(2);
  });

  it('16 children at once add no abort listeners to the batch signal (no MaxListenersExceededWarning)', async () => {
    const { batch, probe } = setup();
    const warnings: string[] = [];
    const onWarning = (warning: Error): void => {
      warnings.push(warning.name);
    };
    process.on('warning', onWarning);
    try {
      const invocations = Array.from({ length: 16 }, (_, index) => ({ tool: 'probe', args: { name: `p${index}`, wait_for: 16 } }));
      const result = await batch({ invocations, max_concurrency: 16 });
      expect(meta(result)).toMatchObject({ concurrency: 16, succeeded: 16 });
      expect(probe.state.peak).toBe(16);
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings).not.toContain('MaxListenersExceededWarning');
  });

  it('runs serially in request order when a mutating child is mixed in', async () => {
    const { batch, probe, workspace, events } = setup();
    const result = await batch({
      invocations: [
        // Were these fanned out, p1 would start while p0 waits for a second caller.
        { tool: 'probe', args: { name: 'p0', wait_for: 2, max_wait_ms: 300 } },
        { tool: 'write', args: { file_path: 'out.txt', content: 'written\n' } },
        { tool: 'probe', args: { name: 'p1' } },
        { tool: 'read', args: { file_path: 'out.txt' } },
      ],
    });
    expect(meta(result)).toMatchObject({ mode: 'serial', concurrency: 1, succeeded: 4 });
    expect(probe.state.peak).toBe(1);
    expect(workspace.paths()).toEqual(['out.txt']);
    // The read after the write sees it: order is kept.
    expect(result.output).toContain('written');
    const starts = events.filter((e) => e.type === 'tool_execution_start' && e.payload['parent_tool_id'] !== undefined).map((e) => e.payload['tool_name']);
    expect(starts).toEqual(['probe', 'write', 'probe', 'read']);
  });

  it('a partial failure completes with failed indices; all failed is exit 1', async () => {
    const { batch } = setup({ files: { 'a.txt': 'alpha\n' } });
    const partial = await batch({
      invocations: [
        { tool: 'read', args: { file_path: 'a.txt' } },
        { tool: 'read', args: { file_path: 'missing.txt' } },
        { tool: 'grep', args: { pattern: '(' } },
        { tool: 'ls', args: {} },
      ],
    });
    expect(partial.exitCode).toBe(0);
    expect(partial.errorKind).toEqual({ type: 'partial_failure', failed: [1, 2], total: 4 });
    const batchMeta = meta(partial);
    expect(batchMeta).toMatchObject({ total: 4, succeeded: 2, failed: [1, 2] });
    expect(batchMeta.results.map((r) => [r.exit_code, r.error_kind?.type])).toEqual([
      [0, undefined],
      [1, 'not_found'],
      [1, 'invalid_argument'],
      [0, undefined],
    ]);
    expect(batchMeta.results[0]!.bytes).toBeGreaterThan(0);
    expect(partial.output).toContain('2 failed (indices 1, 2; retry only those)');
    expect(partial.output).toContain('[1] read: failed (exit 1, not_found)');

    const allFailed = await batch({ invocations: [{ tool: 'read', args: { file_path: 'x' } }, { tool: 'no_such_tool', args: {} }] });
    expect(allFailed.exitCode).toBe(1);
    expect(allFailed.errorKind).toEqual({ type: 'partial_failure', failed: [0, 1], total: 2 });
    expect(meta(allFailed).results[1]!.error_kind?.type).toBe('unsupported');
  });

  it('children are validated by the kernel: bad args fail that child only', async () => {
    const { batch } = setup({ files: { 'a.txt': 'alpha\n' } });
    const result = await batch({ invocations: [{ tool: 'read', args: { file_path: 'a.txt', bogus: 1 } }, { tool: 'read', args: { file_path: 'a.txt' } }] });
    expect(result.errorKind).toEqual({ type: 'partial_failure', failed: [0], total: 2 });
    expect(meta(result).results[0]!.error_kind?.type).toBe('invalid_argument');
  });

  it('rejects a batch inside a batch through the recursion guard, with a clear message', async () => {
    const { batch, probe } = setup();
    const result = await batch({
      invocations: [
        { tool: 'batch', args: { invocations: [{ tool: 'probe', args: { name: 'inner' } }] } },
        { tool: 'probe', args: { name: 'outer' } },
      ],
    });
    expect(result.exitCode).toBe(0);
    expect(result.errorKind).toEqual({ type: 'partial_failure', failed: [0], total: 2 });
    expect(meta(result).results[0]!.error_kind?.type).toBe('unsupported');
    expect(result.output).toContain("Tool 'batch' rejected: a 'batch' orchestration cannot run inside another (call chain: batch > batch");
    expect(probe.state.started).toEqual(['outer']);
  });

  it('judges every child by permission policy: a denied child fails only itself', async () => {
    const { batch, workspace, events } = setup({ files: { 'a.txt': 'alpha\n' }, policy: { deny: ['write(**/.env*)'], defaultDecision: 'allow' } });
    const result = await batch({
      invocations: [
        { tool: 'write', args: { file_path: '.env', content: 'SECRET=1\n' } },
        { tool: 'write', args: { file_path: 'ok.txt', content: 'fine\n' } },
        { tool: 'read', args: { file_path: 'a.txt' } },
      ],
    });
    expect(result.errorKind).toEqual({ type: 'partial_failure', failed: [0], total: 3 });
    expect(meta(result).results[0]!.error_kind?.type).toBe('permission_denied');
    expect(workspace.paths()).toEqual(['a.txt', 'ok.txt']);
    expect(events.some((e) => e.type === 'permission_denied')).toBe(true);
  });

  it('nested events carry the batch id as parent; child ids end with the invocation id', async () => {
    const { batch, events } = setup({ files: { 'a.txt': 'alpha\n' } });
    await batch({ invocations: [{ tool: 'read', args: { file_path: 'a.txt' }, id: 'first' }, { tool: 'ls', args: {} }] }, { toolId: 'b1' });
    const nested = events.filter((e) => e.type === 'tool_start' && e.payload['tool_name'] !== 'batch');
    expect(nested.map((e) => [e.payload['tool_id'], e.payload['parent_tool_id'], e.payload['origin'], e.metadata?.['parent_tool_id']])).toEqual([
      ['b1.first', 'b1', 'nested', 'b1'],
      ['b1.1', 'b1', 'nested', 'b1'],
    ]);
    const ends = events.filter((e) => e.type === 'tool_end').map((e) => e.payload['tool_id']);
    expect(ends.at(-1)).toBe('b1');
    // Progress lines come as children finish (in any order when they fan out).
    expect(events.filter((e) => e.type === 'tool_output_delta').map((e) => e.payload['delta']).sort()).toEqual(['[0] read: ok\n', '[1] ls: ok\n']);
  });

  it('refuses duplicate ids before running anything', async () => {
    const { batch, probe } = setup();
    const result = await batch({ invocations: [{ tool: 'probe', args: { name: 'a' }, id: '1' }, { tool: 'probe', args: { name: 'b' } }] });
    expect(result.errorKind?.type).toBe('invalid_argument');
    expect(result.output).toContain("'1' is used twice");
    expect(probe.state.started).toEqual([]);
  });

  it('schema bounds: 1..32 invocations, max_concurrency 1..16', async () => {
    const { batch } = setup();
    const many = Array.from({ length: 33 }, () => ({ tool: 'ls', args: {} }));
    for (const args of [{ invocations: [] }, { invocations: many }, { invocations: [{ tool: 'ls', args: {} }], max_concurrency: 17 }, { invocations: [{ tool: 'ls' }] }]) {
      expect((await batch(args)).errorKind?.type).toBe('invalid_argument');
    }
  });

  it('cancelling the batch stops the children: the running one is cancelled, later ones never start', async () => {
    const { batch, probe, kernel } = setup();
    const controller = new AbortController();
    const pending = batch(
      {
        invocations: [
          { tool: 'write', args: { file_path: 'w.txt', content: 'x' } },
          { tool: 'probe', args: { name: 'blocker', block: true } },
          { tool: 'probe', args: { name: 'never' } },
        ],
      },
      { abortSignal: controller.signal },
    );
    while (!probe.state.started.includes('blocker')) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    const result = await pending;
    expect(result.errorKind?.type).toBe('cancelled');
    expect(probe.state.started).toEqual(['blocker']);
    expect(kernel.activeInvocations()).toEqual([]);
  });

  it('an exhausted budget starts no further child and still reports what ran', async () => {
    const { batch, probe, workspace } = setup({ extra: { budget: new BudgetGuard({ maxToolCalls: 3 }) } });
    const invocations = [
      { tool: 'probe', args: { name: 'a' } },
      { tool: 'write', args: { file_path: 'x.txt', content: 'x' } },
      { tool: 'probe', args: { name: 'c' } },
      { tool: 'probe', args: { name: 'd' } },
    ];
    const result = await batch({ invocations });
    expect(probe.state.started).toEqual(['a']);
    expect(workspace.paths()).toEqual(['x.txt']);
    expect(result.errorKind).toEqual({ type: 'partial_failure', failed: [2, 3], total: 4 });
    expect(meta(result)).toMatchObject({ succeeded: 2, stopped: { code: 'BUDGET_EXHAUSTED' } });
    expect(result.output).toContain('[3] probe: failed (exit 1)\nnot started: tool_calls budget exhausted');
  });

  it('bounds the output: a large child is cut to its share and points at its full output', async () => {
    const big = Array.from({ length: 3000 }, (_, index) => `line ${index} ${'x'.repeat(40)}`).join('\n');
    const medium = 'm'.repeat(50_000);
    const { batch, kernel } = setup({ files: { 'big.txt': big, 'medium.txt': medium, 'small.txt': 'small\n' } });
    const result = await batch({
      invocations: [
        { tool: 'read', args: { file_path: 'big.txt', format: 'raw' } },
        { tool: 'read', args: { file_path: 'small.txt', format: 'raw' } },
        { tool: 'read', args: { file_path: 'medium.txt', format: 'raw' } },
      ],
    });
    const results = meta(result).results;
    expect(Buffer.byteLength(result.output)).toBeLessThanOrEqual(BATCH_MAX_OUTPUT_BYTES);
    expect(result.output).toContain('[1] read: ok\nsmall\n');
    expect(results[1]!.truncated).toBeUndefined();
    // The big child was already bounded by the kernel: the batch points at that artifact.
    expect(results[0]).toMatchObject({ truncated: true });
    expect(kernel.artifacts.get(results[0]!.artifact!)?.content).toBe(big);
    // The medium one fit the kernel bound but not its share: the batch stored it.
    expect(results[2]).toMatchObject({ truncated: true, bytes: 50_000 });
    expect(kernel.artifacts.get(results[2]!.artifact!)?.content).toBe(medium);
    expect(result.artifacts).toEqual([results[2]!.artifact]);
    expect(result.output).toContain(`full output: ${results[2]!.artifact}`);
  });

  it('declares conservative capabilities for itself', () => {
    expect(createBatchTool().capabilities?.({ invocations: [{ tool: 'read', args: {} }] })).toEqual({ outputKind: 'mixed' });
    expect(createBatchTool().orchestration).toBe('batch');
  });
});

describe('shareBudget', () => {
  it('gives small outputs what they need and splits the rest evenly', () => {
    expect(shareBudget([10, 1000, 5000], 1000)).toEqual([10, 495, 495]);
    expect(shareBudget([10, 20], 1000)).toEqual([10, 20]);
    expect(shareBudget([], 1000)).toEqual([]);
    expect(shareBudget([7, 7, 7], 10)).toEqual([3, 3, 4]);
  });
});
