import type { ProgramRunOutcome, ProgramRunRequest } from './program-run.js';

/**
 * Runs a program in a pooled worker thread (see `program-run.ts`). The worker pool, the thread
 * protocol and `node:worker_threads` load on the first run, so importing this package (every SDK
 * host does, for the `program` tool's definition) costs none of them.
 */
export async function runProgram(request: ProgramRunRequest): Promise<ProgramRunOutcome> {
  const { runProgram: run } = await import('./program-run.js');
  return run(request);
}
