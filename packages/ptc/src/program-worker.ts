// Entry of a program VM worker thread: one QuickJS WebAssembly module, loaded once, runs one
// program at a time for the host (program-run.ts). The host keeps the deadline and terminates
// this thread when a run overstays it, even in the middle of a long built-in.
//
// The module graph below must not import workspace packages at run time (type imports are
// fine): the worker is started from dist by plain Node and from source through tsx, without
// the `@a3s-lab/source` export condition.
import { parentPort, workerData } from 'node:worker_threads';
import type { MessagePort } from 'node:worker_threads';
import { acquireQuickJsHost } from './quickjs-host.js';
import type { QuickJsHost } from './quickjs-host.js';
import { VmRun } from './vm-run.js';
import type { HostCallAnswer } from './vm-run.js';
import type { HostMessage, ProgramLogEntry, ProgramWorkerData, WorkerMessage } from './worker-protocol.js';

/** Console lines are batched to the host at most this often (and with every call and the end). */
const LOG_FLUSH_INTERVAL_MS = 50;

interface ActiveRun {
  readonly runId: number;
  readonly vmRun: VmRun;
  readonly calls: Map<number, (answer: HostCallAnswer) => void>;
  logs: ProgramLogEntry[];
  lastFlush: number;
}

function serve(port: MessagePort, host: QuickJsHost, stop: Int32Array): void {
  let active: ActiveRun | null = null;
  let nextCallId = 0;
  const send = (message: WorkerMessage): void => port.postMessage(message);
  const flushLogs = (run: ActiveRun): void => {
    if (run.logs.length === 0) return;
    send({ type: 'logs', runId: run.runId, entries: run.logs, truncated: run.vmRun.logsTruncated });
    run.logs = [];
    run.lastFlush = Date.now();
  };

  const start = async (message: Extract<HostMessage, { type: 'run' }>): Promise<void> => {
    const { type: _type, runId, allowedTools, ...spec } = message;
    let run: ActiveRun | null = null;
    const vmRun = new VmRun(host, {
      ...spec,
      allowedTools: new Set(allowedTools),
      stopRequested: () => Atomics.load(stop, 0) !== 0,
      callHost: (tool, args) =>
        new Promise((resolve) => {
          if (run === null) return;
          nextCallId += 1;
          run.calls.set(nextCallId, resolve);
          flushLogs(run);
          send({ type: 'call', runId: run.runId, callId: nextCallId, tool, args });
        }),
      log: (entry) => {
        if (run === null) return;
        run.logs.push(entry);
        if (Date.now() - run.lastFlush >= LOG_FLUSH_INTERVAL_MS) flushLogs(run);
      },
    });
    run = { runId, vmRun, calls: new Map(), logs: [], lastFlush: Date.now() };
    active = run;
    const outcome = await vmRun.run();
    active = null;
    flushLogs(run);
    send({
      type: 'done',
      runId: run.runId,
      ...(outcome.encodedResult === undefined ? {} : { encodedResult: outcome.encodedResult }),
      ...(outcome.error === undefined ? {} : { error: outcome.error }),
      disposedCleanly: outcome.disposedCleanly,
      poisoned: host.poisoned,
    });
  };

  port.on('message', (message: HostMessage) => {
    switch (message.type) {
      case 'run':
        // The host hands a worker one run at a time; a second one would be a host bug.
        if (active !== null || host.poisoned) throw new Error('program worker is busy or failed');
        void start(message);
        return;
      case 'result': {
        if (active === null || active.runId !== message.runId) return;
        const resolve = active.calls.get(message.callId);
        if (resolve === undefined) return;
        active.calls.delete(message.callId);
        resolve('result' in message ? { result: message.result } : { thrown: message.thrown });
        return;
      }
      case 'stop':
        if (active !== null && active.runId === message.runId) active.vmRun.stop();
        return;
    }
  });
}

const port = parentPort;
if (port === null) throw new Error('program-worker must run as a worker thread');
const data = workerData as ProgramWorkerData;
const host = await acquireQuickJsHost();
serve(port, host, new Int32Array(data.stopBuffer));
port.postMessage({ type: 'ready' } satisfies WorkerMessage);
