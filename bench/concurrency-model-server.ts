// The scripted model server of bench/concurrency.bench.ts, in a process of its own (so its
// recorded requests and its work are not counted in the host's RSS and event loop). Every
// session gets the same job, decided from the request alone (the number of tool results so far):
// twice read a.ts, grep TODO, edit a.ts, run bash; then answer (9 model requests); every response after `LATENCY_MS`.
// Prints the server URL and the job's number of model requests on its first stdout line; exits when stdin closes.
import { startScriptedModelServer, textResponse, toolCallResponse, toolResultsOf } from '../packages/testing/src/index.js';
import type { ScriptedResponse } from '../packages/testing/src/index.js';

const latencyMs = Number(process.env['LATENCY_MS'] ?? 50);
/** The tools of one cycle (env TOOLS, default all four): e.g. TOOLS=read,edit leaves out the processes. */
const TOOLS = (process.env['TOOLS'] ?? 'read,grep,edit,bash').split(',');
const cycle = (which: string): ScriptedResponse[] =>
  [
    toolCallResponse('read', { file_path: 'a.ts' }),
    toolCallResponse('grep', { pattern: 'TODO', output_mode: 'content' }),
    toolCallResponse('edit', { file_path: 'a.ts', old_string: `TODO: ${which}`, new_string: `DONE: ${which}` }),
    toolCallResponse('bash', { command: 'echo ok' }),
  ].filter((response) => TOOLS.includes(response.toolCalls?.[0]?.name ?? ''));
const JOB: readonly ScriptedResponse[] = [...cycle('first'), ...cycle('second'), textResponse('done')];
/** Model requests of one job. */
export const JOB_TURNS = JOB.length;

if (process.env['CONCURRENCY_SERVER'] === '1') {
  const server = await startScriptedModelServer({
    scenario: (request) => {
      const step = toolResultsOf(request).length % JOB.length;
      return { ...(JOB[step] as ScriptedResponse), latencyMs };
    },
  });
  process.stdout.write(`${server.anthropicBaseUrl} ${JOB_TURNS}\n`);
  process.stdin.resume();
  process.stdin.once('end', () => void server.close().then(() => process.exit(0)));
}
