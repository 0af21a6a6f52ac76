// Worker kills across processes (issue 30): the crash matrix (fleet-crash-matrix.ts) and the
// cross-process case (fleet-cross-process.ts), side by side. Each has its own database, model
// server and worker processes; most of either is waiting out pg-boss's 10 s heartbeat floor after
// a kill, so they run concurrently and the file waits for that floor about once.
import { describe, it } from 'vitest';
import { crashMatrix, KILLS, ROUNDS, SESSIONS, WORKERS } from './fleet-crash-matrix.js';
import { crossProcess } from './fleet-cross-process.js';

describe.concurrent('fleet worker kills', () => {
  it(`crash matrix: ${SESSIONS} sessions x ${ROUNDS} tool rounds on ${WORKERS} workers, ${KILLS} worker kills: every run completes or needs reconciliation, no effect twice, no recorded turn asked again`, { timeout: Math.max(240_000, KILLS * 20_000 * ROUNDS) }, crashMatrix);

  it('across processes: events across a worker kill, confirmations from a third process (also after the worker died), cancel ends the run and its processes', { timeout: 120_000 }, crossProcess);
});
