// Shared by the job's children (ours.mjs, bare.mjs, bare-sdk.mjs): the process's CPU time (user +
// system, this process only: not the commands its tools run) at each model request it sends,
// taken when `fetch` creates the request (undici's diagnostics channel; all three sides send with
// the global `fetch`). CPU per turn = CPU between the first and the last request / the turns
// between them: the same window as the wall-clock per-turn figure, without the time this process
// sat descheduled on a loaded machine, and without imports and lazy loads before the first call.
import { subscribe } from 'node:diagnostics_channel';

const marks = [];
subscribe('undici:request:create', () => {
  const { user, system } = process.cpuUsage();
  marks.push((user + system) / 1000);
});

/** CPU ms per turn between the first and the last model request (NaN with fewer than two). */
export function cpuPerTurnMs() {
  return marks.length < 2 ? Number.NaN : (marks[marks.length - 1] - marks[0]) / (marks.length - 1);
}
