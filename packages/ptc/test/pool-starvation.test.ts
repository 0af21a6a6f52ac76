// Eight programs that never resolve hold every worker of the process-wide pool. A victim's own
// deadline must cover its wait for a worker: it fails as PROGRAM_BUSY within its timeout instead
// of waiting for the hogs' (much longer) deadlines.
import { afterEach, describe, expect, it } from 'vitest';
import { createProgramTool } from '../src/index.js';
import type { ProgramMetadata } from '../src/index.js';
import { MAX_PROGRAM_WORKERS } from '../src/program-worker-pool.js';
import { createFakeContext } from './fake-context.js';

const HOG = 'export default async function run() { await new Promise(() => {}) }';
const HOG_TIMEOUT_MS = 300_000;

function start(source: string, timeoutMs: number, abortSignal?: AbortSignal) {
  const fake = createFakeContext({}, abortSignal === undefined ? {} : { abortSignal });
  return createProgramTool()
    .execute({ type: 'script', source, limits: { timeoutMs } }, fake.context)
    .then((result) => ({ result, program: (result.metadata as { program: ProgramMetadata }).program }));
}

let hogs = new AbortController();
afterEach(() => {
  hogs.abort();
});

describe('program worker pool starvation', () => {
  it.each([
    ['a program that would return at once', 'export default function run() { return 1 }', 400],
    ['a program that awaits a timer', 'export default async function run() { await new Promise((r) => setTimeout(r, 10)); return 2 }', 600],
    ['a program with a longer timeout', 'export default function run() { return 3 }', 1_500],
  ])('%s fails PROGRAM_BUSY within its own timeout while the pool is held', async (_name, source, timeoutMs) => {
    hogs = new AbortController();
    const running = Array.from({ length: MAX_PROGRAM_WORKERS }, () => start(HOG, HOG_TIMEOUT_MS, hogs.signal));
    // Let every hog take its worker.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const victim = await start(source, timeoutMs);
    expect(victim.program.error?.code, victim.result.output).toBe('PROGRAM_BUSY');
    expect(victim.program.error?.details).toMatchObject({ limit: timeoutMs, workers: MAX_PROGRAM_WORKERS });
    hogs.abort();
    for (const hog of await Promise.all(running)) expect(hog.program.error?.code).toBe('PROGRAM_CANCELLED');
  }, 20_000);
});
