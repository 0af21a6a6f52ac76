// Shared parts of the fleet tests: a scripted model whose every turn is a function of the request
// (so any worker process can continue any run), a counting HTTP service the `bash` calls hit, the
// ACL pointing an agent at the model server.
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import type { AddressInfo } from 'node:net';
import type { AgentEvent } from '@a3s-lab/code-core';
import { FLEET_QUEUE } from '@a3s-lab/code-postgres';
import type { Fleet, FleetRun } from '@a3s-lab/code-postgres';
import type { RecordedRequest, ScenarioFunction, ScriptedModelServer, ScriptedResponse } from '@a3s-lab/code-testing';

/** Inline ACL of an agent on the scripted server (Anthropic protocol), bash/read allowed. */
export function fleetAcl(server: Pick<ScriptedModelServer, 'anthropicBaseUrl'>, extra = ''): string {
  return `
default_model = "anthropic/claude-test"
sandbox { network = "full" }
${extra}
providers "anthropic" {
  api_key = "sk-ant-test-key-000000"
  base_url = "${server.anthropicBaseUrl}"
  models "claude-test" { tool_call = true  limit = { context = 200000  output = 4096 } }
}
`;
}

interface AnthropicBody {
  readonly messages?: readonly { readonly role: string; readonly content: string | readonly { readonly type: string; readonly text?: string }[] }[];
}

/** The job name (first user text, `job <name>`) and the turn (assistant messages so far) of a request. */
export function jobTurnOf(request: RecordedRequest): { job: string; turn: number } {
  const messages = (request.body as AnthropicBody | undefined)?.messages ?? [];
  const first = messages[0];
  const text = typeof first?.content === 'string' ? first.content : (first?.content.find((p) => p.type === 'text')?.text ?? '');
  const job = /job (\S+)/.exec(text)?.[1] ?? 'unknown';
  return { job, turn: messages.filter((m) => m.role === 'assistant').length };
}

/** One request the model server answered, for the "never asked twice for a recorded turn" check. */
export interface SeenTurn {
  readonly job: string;
  readonly turn: number;
  readonly atMs: number;
}

/**
 * The crash-matrix model, `rounds` times: a `bash` call hitting `<hitUrl>/<job>-a<r>`, a `read` of
 * a file, a `bash` call hitting `<job>-b<r>` (slowly, so kills land inside tools too); then the
 * answer. Tool call ids are derived from job and turn: deterministic on any process.
 */
export function crashScenario(hitUrl: string, seen: SeenTurn[], rounds = 1): ScenarioFunction {
  return (request): ScriptedResponse => {
    const { job, turn } = jobTurnOf(request);
    seen.push({ job, turn, atMs: Date.now() });
    const id = (n: number): string => `toolu_${job}_${turn}_${n}`;
    if (turn >= rounds * 3) return { text: ['done ', job], chunkDelayMs: 5 };
    const round = Math.floor(turn / 3);
    switch (turn % 3) {
      case 0:
        return { text: `working on ${job}`, toolCalls: [{ id: id(0), name: 'bash', input: { command: `curl -sf ${hitUrl}/${job}-a${round}` } }], chunkDelayMs: 5 };
      case 1:
        return { toolCalls: [{ id: id(0), name: 'read', input: { file_path: 'notes.txt' } }] };
      default:
        return { toolCalls: [{ id: id(0), name: 'bash', input: { command: `sleep 0.3; curl -sf ${hitUrl}/${job}-b${round}; sleep 0.3` } }] };
    }
  };
}

/** The counter key a crash-matrix bash call hits (`null` for other calls). */
export function hitKeyOf(job: string, toolId: string): string | null {
  const turn = Number(new RegExp(`^toolu_${job}_(\\d+)_0$`).exec(toolId)?.[1] ?? Number.NaN);
  if (Number.isNaN(turn) || turn % 3 === 1) return null;
  return `${job}-${turn % 3 === 0 ? 'a' : 'b'}${Math.floor(turn / 3)}`;
}

/** A counting HTTP service on 127.0.0.1: `GET /hit/<key>` counts one hit of `key`. */
export async function startCounter(): Promise<{ url: string; hits: Map<string, number>; close(): Promise<void> }> {
  const hits = new Map<string, number>();
  const server = createServer((req, res) => {
    const key = (req.url ?? '').replace(/^\/hit\//, '');
    hits.set(key, (hits.get(key) ?? 0) + 1);
    res.end(`hit ${key}\n`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hit`,
    hits,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A worker child process (see fixtures/fleet-worker-process.ts). */
export interface WorkerProcess {
  readonly workerId: string;
  readonly child: import('node:child_process').ChildProcess;
  /** Resolves when it takes runs. */
  readonly ready: Promise<void>;
  /** Resolves when it exited. */
  readonly exited: Promise<void>;
}

/**
 * Starts a fleet worker process (its fleet's `pollMs` default 50: the tests' floor). `built`: plain
 * `node` on the built packages (`pnpm build`), as users run a worker; otherwise the sources under tsx.
 */
export async function spawnWorker(connectionString: string, anthropicBaseUrl: string, workerId: string, options: { readonly leaseMs?: number; readonly concurrency?: number; readonly pollMs?: number; readonly built?: boolean } = {}): Promise<WorkerProcess> {
  const { spawn } = await import('node:child_process');
  const { fileURLToPath } = await import('node:url');
  const entry = fileURLToPath(new URL('./fixtures/fleet-worker-process.ts', import.meta.url));
  const loader = options.built === true ? ['--disable-warning=ExperimentalWarning'] : ['--conditions=@a3s-lab/source', '--import', 'tsx'];
  const child = spawn(process.execPath, [...loader, entry, connectionString, workerId, String(options.leaseMs ?? 10_000), String(options.concurrency ?? 4), String(options.pollMs ?? 50)], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, A3S_FLEET_WORKER_ACL: fleetAcl({ anthropicBaseUrl }) },
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ready = new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('ready\n')) resolve();
    });
    child.once('exit', (code, signal) => reject(new Error(`worker ${workerId} exited before ready (${code ?? signal}): ${stderr}`)));
  });
  ready.catch(() => undefined);
  return { workerId, child, ready, exited };
}

/**
 * The cross-process model: `x` jobs (bash, read, then a slowly streamed answer a worker is killed
 * in), `a` jobs (one bash call the session asks a human about, then the answer), `s` jobs (a bash
 * call that sleeps until cancelled; `61.<n>` marks its process), `r` jobs (a bash call its worker
 * dies in: `62.<n>`).
 */
export function crossScenario(seen: SeenTurn[]): ScenarioFunction {
  return (request): ScriptedResponse => {
    const { job, turn } = jobTurnOf(request);
    seen.push({ job, turn, atMs: Date.now() });
    const id = `toolu_${job}_${turn}_0`;
    if (job.startsWith('x')) {
      if (turn === 0) return { toolCalls: [{ id, name: 'bash', input: { command: 'echo one' } }] };
      if (turn === 1) return { toolCalls: [{ id, name: 'read', input: { file_path: 'notes.txt' } }] };
      return { text: Array.from({ length: 30 }, (_, i) => `w${i} `), chunkDelayMs: 60 };
    }
    if (job.startsWith('a')) return turn === 0 ? { toolCalls: [{ id, name: 'bash', input: { command: `echo approved-${job}` } }] } : { text: `confirmed ${job}` };
    if (job.startsWith('r')) return turn === 0 ? { toolCalls: [{ id, name: 'bash', input: { command: `sleep 62.${job.slice(1)}` } }] } : { text: `reconciled ${job}` };
    if (job.startsWith('s')) return turn === 0 ? { toolCalls: [{ id, name: 'bash', input: { command: `sleep 61.${job.slice(1)}` } }] } : { text: 'not reached' };
    return { text: `unknown job ${job}` };
  };
}

/** Processes whose command line (arguments joined by spaces) contains `marker`. */
export function processesWith(marker: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ').includes(marker)) pids.push(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return pids;
}

/** Resolves once `check` holds (polled every 50 ms), rejects after `timeoutMs`. */
export async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; ) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('condition not reached');
}

/** The runs of `ids` the fleet knows. */
export async function fleetRuns(fleet: Pick<Fleet, 'run'>, ids: readonly string[]): Promise<FleetRun[]> {
  const runs = await Promise.all(ids.map((id) => fleet.run(id)));
  return runs.filter((r): r is FleetRun => r !== null);
}

/** Follows a run's events from this process; `until` resolves once an event matches. */
export function follow(fleet: Fleet, runId: string): { events: AgentEvent[]; until(match: (e: AgentEvent) => boolean): Promise<AgentEvent>; done: Promise<void> } {
  const events: AgentEvent[] = [];
  const waiters: { match: (e: AgentEvent) => boolean; resolve: (e: AgentEvent) => void }[] = [];
  const done = (async () => {
    for await (const event of fleet.events(runId)) {
      events.push(event);
      for (const w of [...waiters]) if (w.match(event)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(event);
      }
    }
  })();
  return {
    events,
    done,
    until: (match) => {
      const seen = events.find(match);
      return seen !== undefined ? Promise.resolve(seen) : new Promise((resolve) => waiters.push({ match, resolve }));
    },
  };
}

/** Hands runs' jobs to the fleet's queue again: what pg-boss does once a dead worker's heartbeat expires. */
export async function requeue(connectionString: string, runIds: readonly string[]): Promise<void> {
  const bossUrl = pathToFileURL(createRequire(import.meta.resolve('@a3s-lab/code-postgres')).resolve('pg-boss')).href;
  const { PgBoss } = (await import(bossUrl)) as { PgBoss: new (connectionString: string) => { on(event: 'error', listener: () => void): void; start(): Promise<unknown>; send(queue: string, data: object): Promise<unknown>; stop(options: object): Promise<void> } };
  const boss = new PgBoss(connectionString);
  boss.on('error', () => undefined);
  await boss.start();
  for (const runId of runIds) await boss.send(FLEET_QUEUE, { runId });
  await boss.stop({ graceful: false, close: true });
}
