// Runs the BUILT package (dist) under plain Node, without the `@a3s-lab/source` condition or tsx: the
// VM worker must start from dist/program-worker.js. Run after `pnpm run build`:
//   node packages/ptc/scripts/dist-smoke.mjs
import { runProgram } from '../dist/index.js';

const request = (source, timeoutMs = 1000) => ({
  source,
  inputs: { n: 41 },
  limits: { timeoutMs, maxToolCalls: 5, maxOutputBytes: 4096 },
  allowedTools: new Set(['echo']),
  invoke: async (tool, args) => ({ name: tool, output: String(args.text), exitCode: 0 }),
});

const failures = [];
const check = (label, ok, detail) => {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${label}${detail === undefined ? '' : ` (${detail})`}`);
  if (!ok) failures.push(label);
};

let t0 = performance.now();
const first = await runProgram(request('export default async (ctx, inputs) => ({ n: inputs.n + 1, echoed: (await ctx.tool("echo", { text: "hi" })).output })'));
check('first run from dist', first.encodedResult === 'j' + JSON.stringify({ n: 42, echoed: 'hi' }, null, 2), `${Math.round(performance.now() - t0)} ms incl. worker start; ${first.error?.code ?? 'no error'}`);

t0 = performance.now();
const spin = await runProgram(request('export default function run() { for(;;){ new Array(1e5).fill(0) } }'));
const overshoot = Math.round(performance.now() - t0 - 1000);
check('long built-in loop ends with PROGRAM_TIMEOUT', spin.error?.code === 'PROGRAM_TIMEOUT' && overshoot < 500, `${overshoot} ms past the deadline`);

const again = await runProgram(request('export default () => "still fine"'));
check('next run after a terminated worker', again.encodedResult === 'sstill fine', again.error?.code);

if (failures.length > 0) process.exit(1);
