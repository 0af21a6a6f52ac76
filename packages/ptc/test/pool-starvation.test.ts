// Programs that hold workers must not starve other runs (issue 35, item 9):
// - a program that waits on nothing (no ctx call pending, no job queued) ends at once with
//   PROGRAM_DEADLOCK instead of holding its worker to the deadline;
// - sessions get a fair share: eight sessions each parking a program on a host call that never
//   returns hold the eight base workers, and a ninth session's program still runs (the pool grows
//   for an owner holding no worker, up to MAX_PROGRAM_WORKERS_BURST);
// - one session holding every base worker makes its own next run wait, and that wait counts
//   against the run's timeout (PROGRAM_BUSY within it).
import { afterEach, describe, expect, it } from 'vitest';
import { createProgramTool } from '../src/index.js';
import type { ProgramMetadata } from '../src/index.js';
import { MAX_PROGRAM_WORKERS } from '../src/program-worker-pool.js';
import { createFakeContext } from './fake-context.js';
import type { FakeTool } from './fake-context.js';

const HOG_TIMEOUT_MS = 300_000;
/** Programs parked in `hang` right now, and who waits for a number of them. */
let parked = 0;
let parkedWaiters: Array<{ count: number; resolve: () => void }> = [];
/** A host call that only returns when the run is cancelled (each call counts as a parked program). */
const hang: FakeTool = (_args, signal) =>
  new Promise((resolve) => {
    parked += 1;
    for (const waiter of parkedWaiters.filter((w) => parked >= w.count)) waiter.resolve();
    parkedWaiters = parkedWaiters.filter((w) => parked < w.count);
    signal?.addEventListener('abort', () => resolve({ output: 'aborted', exitCode: 1 }), { once: true });
  });
const HOG = "export default async function run(ctx) { await ctx.tool('hang', {}) }";

function start(source: string, timeoutMs: number, options: { abortSignal?: AbortSignal; sessionId?: string } = {}) {
  const fake = createFakeContext({ hang }, options);
  return createProgramTool()
    .execute({ type: 'script', source, limits: { timeoutMs } }, fake.context)
    .then((result) => ({ result, program: (result.metadata as { program: ProgramMetadata }).program }));
}

let hogs = new AbortController();
afterEach(() => {
  hogs.abort();
  parked = 0;
  parkedWaiters = [];
});

/** Resolves once `count` programs are parked in `hang`: each holds a worker (an event, not a poll). */
function untilParked(count: number): Promise<void> {
  return parked >= count ? Promise.resolve() : new Promise((resolve) => parkedWaiters.push({ count, resolve }));
}

describe('a program waiting on nothing', () => {
  it.each([
    ['await new Promise(() => {})', 'export default async function run() { await new Promise(() => {}) }'],
    ['a top-level await of a promise never settled', 'await new Promise(() => {});\nexport default function run() { return 1 }'],
    ['a chain of thens on a never-settled promise', 'export default async function run() { const p = new Promise(() => {}); return p.then((x) => x).then((y) => y) }'],
  ])('%s ends at once with PROGRAM_DEADLOCK', async (_name, source) => {
    const started = performance.now();
    const run = await start(source, HOG_TIMEOUT_MS);
    expect(run.program.error?.code, run.result.output).toBe('PROGRAM_DEADLOCK');
    expect(run.result.output).toContain('nothing can settle');
    expect(performance.now() - started).toBeLessThan(5_000);
  }, 20_000);

  it('a program awaiting a ctx call is not a deadlock', async () => {
    const run = await start("export default async function run(ctx) { const r = await ctx.tool('echo', {}); return r }", 10_000);
    expect(run.program.error?.code).not.toBe('PROGRAM_DEADLOCK');
  });
});

describe('program worker pool: a fair share per session', () => {
  it(`${MAX_PROGRAM_WORKERS} sessions each parking a program on a host call do not keep another session's program from running`, async () => {
    hogs = new AbortController();
    const running = Array.from({ length: MAX_PROGRAM_WORKERS }, (_, i) => start(HOG, HOG_TIMEOUT_MS, { abortSignal: hogs.signal, sessionId: `hog-${i}` }));
    await untilParked(MAX_PROGRAM_WORKERS);
    const other = await start('export default function run() { return 42 }', 5_000, { sessionId: 'other' });
    expect(other.program.error, other.result.output).toBeUndefined();
    expect(other.result.output).toContain('42');
    hogs.abort();
    for (const hog of await Promise.all(running)) expect(hog.program.error?.code).toBe('PROGRAM_CANCELLED');
  }, 30_000);

  it('one session holding every base worker waits for its own next run, within that run\'s timeout (PROGRAM_BUSY)', async () => {
    hogs = new AbortController();
    const running = Array.from({ length: MAX_PROGRAM_WORKERS }, () => start(HOG, HOG_TIMEOUT_MS, { abortSignal: hogs.signal, sessionId: 'greedy' }));
    await untilParked(MAX_PROGRAM_WORKERS);
    const mine = await start('export default function run() { return 1 }', 500, { sessionId: 'greedy' });
    expect(mine.program.error?.code, mine.result.output).toBe('PROGRAM_BUSY');
    expect(mine.program.error?.details).toMatchObject({ limit: 500, workers: MAX_PROGRAM_WORKERS });
    // ...while another session still gets a worker of its own.
    const other = await start('export default function run() { return 2 }', 5_000, { sessionId: 'polite' });
    expect(other.program.error, other.result.output).toBeUndefined();
    hogs.abort();
    for (const hog of await Promise.all(running)) expect(hog.program.error?.code).toBe('PROGRAM_CANCELLED');
  }, 30_000);
});
