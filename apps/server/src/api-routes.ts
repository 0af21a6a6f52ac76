import { Hono } from 'hono';
import { confirmBody, confirmationAnswerOf, createSessionBody, deleteFlag, sendBody } from './api-request-input.js';
import { followRunEvents } from './follow-run-events.js';
import { formatSseMessage } from './format-sse-message.js';
import { cursor, knownQuery, readJson, traceparentOf } from './request-input.js';
import { ServerError } from './server-error.js';
import type { SessionHost } from './session-host.js';
import { SessionSummaries } from './session-summaries.js';
import { SSE_HEADERS, streamSseText } from './stream-sse-text.js';

/**
 * The JSON + SSE API under `/api` (every route behind the request guard). Sessions are reached
 * through `host`, which resumes them from the store under their lease; see README.md for the
 * route table.
 */
export function createApiRoutes(host: SessionHost, options: { readonly maxStreamMs: number }): Hono {
  const api = new Hono();
  const summaries = new SessionSummaries(host.store);

  api.get('/config', (c) => c.json({ workspaceRoots: host.workspaceRoots, model: host.defaultModel }));

  api.get('/sessions', async (c) => {
    knownQuery(c, []);
    return c.json({ sessions: await summaries.list() });
  });

  api.post('/sessions', async (c) => {
    const body = await readJson(c, createSessionBody);
    return c.json(await host.create(body.workspace), 201);
  });

  api.get('/sessions/:id', async (c) =>
    c.json(
      await host.use(c.req.param('id'), async (session) => ({
        id: session.id,
        workspace: session.workspace,
        labels: session.labels(),
        runs: await session.runs(),
        pendingConfirmations: await session.pendingConfirmations(),
      })),
    ),
  );

  api.delete('/sessions/:id', async (c) => {
    knownQuery(c, ['delete']);
    const remove = deleteFlag(c);
    const found = await host.close(c.req.param('id'), { remove });
    if (!found) throw new ServerError('NOT_FOUND', `no session '${c.req.param('id')}'`);
    return c.json({ closed: true, deleted: remove });
  });

  api.get('/sessions/:id/tools', async (c) => c.json({ tools: await host.use(c.req.param('id'), async (session) => session.toolDefinitions()) }));

  api.get('/sessions/:id/runs', async (c) => c.json({ runs: await host.use(c.req.param('id'), (session) => session.runs()) }));

  api.post('/sessions/:id/runs', async (c) => {
    const body = await readJson(c, sendBody);
    // W3C trace context: a caller's `traceparent` makes the run's spans its children.
    return c.json(await host.startRun(c.req.param('id'), body.prompt, traceparentOf(c)), 202);
  });

  api.get('/sessions/:id/runs/:runId', async (c) => {
    const runId = c.req.param('runId');
    const run = await host.use(c.req.param('id'), async (session) => (await session.runs()).find((r) => r.id === runId));
    if (run === undefined) throw new ServerError('NOT_FOUND', `no run '${runId}'`, { runId });
    return c.json(run);
  });

  api.get('/sessions/:id/runs/:runId/events', async (c) => {
    knownQuery(c, ['after', 'limit']);
    const after = cursor(c.req.query('after'), 'after');
    const limit = cursor(c.req.query('limit'), 'limit');
    if (limit === 0) throw new ServerError('BAD_REQUEST', 'limit must be at least 1', { field: 'limit' });
    const runId = c.req.param('runId');
    const page = await host.use(c.req.param('id'), (session) => session.runEventPage(runId, after, limit));
    if (page === null) throw new ServerError('NOT_FOUND', `no run '${runId}'`, { runId });
    return c.json(page);
  });

  api.get('/sessions/:id/runs/:runId/stream', async (c) => {
    knownQuery(c, ['after']);
    const runId = c.req.param('runId');
    // Last-Event-ID (sent by a reconnecting client) wins over ?after=; both are exclusive cursors.
    const after = cursor(c.req.header('last-event-id'), 'Last-Event-ID') ?? cursor(c.req.query('after'), 'after') ?? 0;
    const handle = await host.open(c.req.param('id'));
    try {
      if ((await handle.session.runEventPage(runId, after, 1)) === null) throw new ServerError('NOT_FOUND', `no run '${runId}'`, { runId });
    } catch (error) {
      handle.release();
      throw error;
    }
    // maxStreamMs ends the stream without `end`: the client reconnects from its last id.
    return streamSseText(c, { headers: SSE_HEADERS, maxStreamMs: options.maxStreamMs, release: () => handle.release() }, async (stream, signal) => {
      for await (const batch of followRunEvents(handle.session, runId, after, signal)) {
        // One write per page: per-event writes cost a stream round trip each under fan-out.
        let text = batch.gap === null ? '' : formatSseMessage({ event: 'gap', data: JSON.stringify(batch.gap) });
        for (const { sequence, event } of batch.events) text += formatSseMessage({ id: String(sequence), event: event.type, data: JSON.stringify(event) });
        await stream.write(text);
      }
      if (!signal.aborted) {
        const run = (await handle.session.runs()).find((r) => r.id === runId);
        await stream.writeSSE({ event: 'end', data: JSON.stringify({ runId, status: run?.status ?? 'unknown' }) });
      }
    });
  });

  api.post('/sessions/:id/runs/:runId/cancel', async (c) => {
    const runId = c.req.param('runId');
    return c.json({ cancelled: await host.use(c.req.param('id'), (session) => session.cancelRun(runId)) });
  });

  api.get('/sessions/:id/confirmations', async (c) => c.json(await host.pendingConfirmations(c.req.param('id'))));

  api.post('/sessions/:id/confirmations/:toolId', async (c) => {
    const body = await readJson(c, confirmBody);
    const toolId = c.req.param('toolId');
    // Another process running the session gets the answer forwarded (once: a forwarded request says so).
    const answer = confirmationAnswerOf(body);
    const answered = await host.answerConfirmation(c.req.param('id'), toolId, answer, c.req.header('x-a3s-forwarded') === '1');
    if (!answered) throw new ServerError('NOT_FOUND', `no pending confirmation '${toolId}' (answered, expired or unknown)`, { toolId });
    return c.json({ answered: true, approved: body.approved });
  });

  api.get('/sessions/:id/artifacts', async (c) => {
    knownQuery(c, ['uri']);
    const uri = c.req.query('uri');
    if (uri === undefined || uri.length === 0) throw new ServerError('BAD_REQUEST', 'uri is required', { field: 'uri' });
    const artifact = await host.use(c.req.param('id'), async (session) => session.getArtifact(uri));
    if (artifact === null) throw new ServerError('NOT_FOUND', `no artifact '${uri}'`, { uri });
    return c.json(artifact);
  });

  return api;
}
