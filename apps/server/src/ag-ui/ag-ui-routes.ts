import { EventEncoder } from '@ag-ui/encoder';
import { Hono } from 'hono';
import { answerConfirmations, runAsking } from '../answer-confirmations.js';
import { knownQuery, readJson, traceparentOf } from '../request-input.js';
import { ServerError } from '../server-error.js';
import type { SessionHost } from '../session-host.js';
import { streamRunProjection } from '../stream-run-projection.js';
import { SSE_HEADERS, streamSseText } from '../stream-sse-text.js';
import type { RunProjection } from '../stream-run-projection.js';
import { AgUiEncoder } from './ag-ui-encoder.js';
import { agUiCancelBody, agUiIntentOf, readRunAgentInput } from './run-agent-input.js';

/** AG-UI's {@link RunProjection}: each event SSE-encoded by `@ag-ui/encoder`. */
export function agUiProjection(encoder: AgUiEncoder): RunProjection {
  const sse = new EventEncoder();
  const text = (events: readonly Parameters<EventEncoder['encodeSSE']>[0][]): string => events.map((e) => sse.encodeSSE(e)).join('');
  return {
    start: () => text([encoder.start()]),
    prime: (event, sequence) => void encoder.encode(event, sequence),
    encode: (event, sequence) => text(encoder.encode(event, sequence)),
    gap: (first) => text(encoder.gap(first)),
    pause: (event) => text(encoder.interrupt(event, Number(event.metadata?.['timestamp_ms'] ?? Date.now()))),
    finish: (run) => text(encoder.finish(run)),
  };
}

/**
 * `POST /agui`: the AG-UI endpoint (`HttpAgent` and every client of the protocol). A
 * `RunAgentInput` with `threadId` = the session id starts an A3S run of its last user message,
 * or, with `resume` entries, answers the confirmations its interrupts stand for and continues
 * that run; the answer is AG-UI events over SSE, projected from the run's recorded events.
 * `POST /agui/cancel` `{ threadId }` cancels the thread's running run.
 */
export function createAgUiRoutes(host: SessionHost): Hono {
  const agui = new Hono();
  agui.post('/agui', async (c) => {
    knownQuery(c, []);
    const input = await readRunAgentInput(c);
    const intent = agUiIntentOf(input);
    const sessionId = input.threadId;
    let a3sRunId: string;
    let from = 0;
    if (intent.kind === 'prompt') a3sRunId = (await host.startRun(sessionId, intent.prompt, traceparentOf(c))).id;
    else {
      const found = await host.use(sessionId, async (session) => {
        const runId = await runAsking(session, intent.answers[0]?.approvalId ?? '');
        if (runId === null) throw new ServerError('BAD_REQUEST', `no run of thread '${sessionId}' asked interrupt '${intent.answers[0]?.approvalId ?? ''}'`, { field: 'resume' });
        return { runId, from: await answerConfirmations(session, runId, intent.answers) };
      });
      a3sRunId = found.runId;
      from = found.from;
    }
    const handle = await host.open(sessionId);
    // A closed connection (HttpAgent.abortRun) stops this stream only; cancel is its own request.
    return streamSseText(c, { headers: SSE_HEADERS, release: () => handle.release() }, async (stream, signal) => {
      const projection = agUiProjection(new AgUiEncoder({ threadId: sessionId, runId: input.runId, a3sRunId }));
      for await (const text of streamRunProjection(handle.session, a3sRunId, from, signal, projection)) await stream.write(text);
    });
  });
  // AG-UI has no stop request of its own (HttpAgent.abortRun() is a disconnect): a client that
  // means "stop the run" posts the thread here; the open stream ends with the cancelled outcome.
  agui.post('/agui/cancel', async (c) => {
    knownQuery(c, []);
    const { threadId } = await readJson(c, agUiCancelBody);
    const cancelled = await host.use(threadId, async (session) => {
      const run = await session.currentRun();
      return run === null ? false : session.cancelRun(run.id);
    });
    return c.json({ cancelled });
  });

  return agui;
}
