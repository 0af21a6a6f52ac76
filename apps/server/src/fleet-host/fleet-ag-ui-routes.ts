import { Hono } from 'hono';
import { agUiProjection } from '../ag-ui/ag-ui-routes.js';
import { AgUiEncoder } from '../ag-ui/ag-ui-encoder.js';
import { agUiCancelBody, agUiIntentOf, readRunAgentInput } from '../ag-ui/run-agent-input.js';
import { knownQuery, readJson } from '../request-input.js';
import { ServerError } from '../server-error.js';
import { SSE_HEADERS, streamSseText } from '../stream-sse-text.js';
import { answerFleetApprovals } from './answer-fleet-approvals.js';
import { refuseTraceparent } from './fleet-api-routes.js';
import type { FleetHost } from './fleet-host.js';
import { streamFleetProjection } from './stream-fleet-projection.js';

/**
 * `POST /agui` and `POST /agui/cancel` of a fleet-backed API process (same protocol as the
 * single-host endpoint, `createAgUiRoutes`): a `RunAgentInput` on thread = session id submits a
 * fleet run of its last user message, or answers the interrupts its `resume` entries name
 * (interrupt ids are tool call ids on a fleet) and continues that run; the events are the
 * journal's, projected by the same AG-UI encoder.
 */
export function createFleetAgUiRoutes(host: FleetHost): Hono {
  const agui = new Hono();
  agui.post('/agui', async (c) => {
    knownQuery(c, []);
    const input = await readRunAgentInput(c);
    refuseTraceparent(c);
    const intent = agUiIntentOf(input);
    const sessionId = input.threadId;
    let a3sRunId: string;
    let from = 0;
    if (intent.kind === 'prompt') a3sRunId = (await host.startRun(sessionId, intent.prompt)).id;
    else {
      const interruptId = intent.answers[0]?.approvalId ?? '';
      const pending = (await host.pendingConfirmations(sessionId)).find((p) => p.toolId === interruptId);
      if (pending === undefined) throw new ServerError('BAD_REQUEST', `no run of thread '${sessionId}' waits for interrupt '${interruptId}'`, { field: 'resume' });
      a3sRunId = pending.runId;
      from = await answerFleetApprovals(host, sessionId, a3sRunId, intent.answers);
    }
    // A closed connection (HttpAgent.abortRun) stops this stream only; cancel is its own request.
    return streamSseText(c, { headers: SSE_HEADERS }, async (stream, signal) => {
      const projection = agUiProjection(new AgUiEncoder({ threadId: sessionId, runId: input.runId, a3sRunId }));
      for await (const text of streamFleetProjection(host, sessionId, a3sRunId, from, signal, projection)) await stream.write(text);
    });
  });
  agui.post('/agui/cancel', async (c) => {
    knownQuery(c, []);
    const { threadId } = await readJson(c, agUiCancelBody);
    const running = (await host.runs(threadId)).find((r) => r.status === 'running');
    return c.json({ cancelled: running === undefined ? false : await host.cancel(threadId, running.id) });
  });
  return agui;
}
