import { Hono } from 'hono';
import type { Context } from 'hono';
import { confirmBody, confirmationAnswerOf, createSessionBody, deleteFlag, sendBody } from '../api-request-input.js';
import { formatSseMessage } from '../format-sse-message.js';
import { cursor, knownQuery, readJson, traceparentOf } from '../request-input.js';
import { ServerError } from '../server-error.js';
import { SSE_HEADERS, streamSseText } from '../stream-sse-text.js';
import type { FleetHost } from './fleet-host.js';

/** Fleet runs carry their prompt only: a trace context would be dropped on the way to the worker, so it is refused. */
export function refuseTraceparent(c: Context): void {
  if (traceparentOf(c) !== undefined) throw new ServerError('BAD_REQUEST', 'traceparent is not carried to fleet workers yet: send the run without it', { field: 'traceparent' });
}

/**
 * The JSON + SSE API under `/api` of a fleet-backed API process (`--postgres`): the same routes
 * and bodies as the single-host API where the fleet can answer them (see README.md, "Fleet
 * deployment"); runs are fleet runs (`kind: 'fleet'`, `fleet.status`, `fleet.attempts`,
 * `fleet.workerId`), their events the run journal's, cancels and confirmations go through the
 * database from whichever process receives them.
 */
export function createFleetApiRoutes(host: FleetHost, options: { readonly maxStreamMs: number }): Hono {
  const api = new Hono();

  api.get('/config', (c) => c.json({ workspaceRoots: host.workspaceRoots, model: host.defaultModel }));

  api.get('/sessions', async (c) => {
    knownQuery(c, []);
    return c.json({ sessions: await host.list() });
  });

  api.post('/sessions', async (c) => {
    const body = await readJson(c, createSessionBody);
    return c.json(await host.create(body.workspace), 201);
  });

  api.get('/sessions/:id', async (c) => {
    const id = c.req.param('id');
    const session = await host.session(id);
    return c.json({ ...session, runs: await host.runs(id), pendingConfirmations: await host.pendingConfirmations(id) });
  });

  api.delete('/sessions/:id', async (c) => {
    knownQuery(c, ['delete']);
    const remove = deleteFlag(c);
    if (!(await host.close(c.req.param('id'), { remove }))) throw new ServerError('NOT_FOUND', `no session '${c.req.param('id')}'`);
    return c.json({ closed: true, deleted: remove });
  });

  api.get('/sessions/:id/tools', async (c) => c.json({ tools: await host.tools(c.req.param('id')) }));

  api.get('/sessions/:id/runs', async (c) => c.json({ runs: await host.runs(c.req.param('id')) }));

  api.post('/sessions/:id/runs', async (c) => {
    const body = await readJson(c, sendBody);
    refuseTraceparent(c);
    return c.json(await host.startRun(c.req.param('id'), body.prompt), 202);
  });

  api.get('/sessions/:id/runs/:runId', async (c) => c.json(await host.run(c.req.param('id'), c.req.param('runId'))));

  api.get('/sessions/:id/runs/:runId/events', async (c) => {
    knownQuery(c, ['after', 'limit']);
    const after = cursor(c.req.query('after'), 'after');
    const limit = cursor(c.req.query('limit'), 'limit');
    if (limit === 0) throw new ServerError('BAD_REQUEST', 'limit must be at least 1', { field: 'limit' });
    return c.json(await host.eventPage(c.req.param('id'), c.req.param('runId'), after, limit));
  });

  api.get('/sessions/:id/runs/:runId/stream', async (c) => {
    knownQuery(c, ['after']);
    const id = c.req.param('id');
    const runId = c.req.param('runId');
    // Last-Event-ID (sent by a reconnecting client) wins over ?after=; both are exclusive cursors.
    const after = cursor(c.req.header('last-event-id'), 'Last-Event-ID') ?? cursor(c.req.query('after'), 'after') ?? 0;
    await host.fleetRun(id, runId);
    // maxStreamMs ends the stream without `end`: the client reconnects from its last id.
    return streamSseText(c, { headers: SSE_HEADERS, maxStreamMs: options.maxStreamMs }, async (stream, signal) => {
      for await (const event of host.events(runId, after, signal)) {
        await stream.write(formatSseMessage({ id: String(event.metadata?.['sequence']), event: event.type, data: JSON.stringify(event) }));
      }
      if (!signal.aborted) {
        const run = await host.run(id, runId);
        await stream.writeSSE({ event: 'end', data: JSON.stringify({ runId, status: run.fleet.status }) });
      }
    });
  });

  api.post('/sessions/:id/runs/:runId/cancel', async (c) => c.json({ cancelled: await host.cancel(c.req.param('id'), c.req.param('runId')) }));

  api.get('/sessions/:id/confirmations', async (c) => c.json({ confirmations: await host.pendingConfirmations(c.req.param('id')), source: 'fleet' }));

  api.post('/sessions/:id/confirmations/:toolId', async (c) => {
    const body = await readJson(c, confirmBody);
    const toolId = c.req.param('toolId');
    const answer = confirmationAnswerOf(body);
    if (!(await host.answerConfirmation(c.req.param('id'), toolId, answer))) throw new ServerError('NOT_FOUND', `no pending confirmation '${toolId}' (answered or unknown)`, { toolId });
    return c.json({ answered: true, approved: body.approved });
  });

  api.get('/sessions/:id/artifacts', async (c) => {
    knownQuery(c, ['uri']);
    const uri = c.req.query('uri');
    if (uri === undefined || uri.length === 0) throw new ServerError('BAD_REQUEST', 'uri is required', { field: 'uri' });
    const artifact = await host.artifact(c.req.param('id'), uri);
    if (artifact === null) throw new ServerError('NOT_FOUND', `no artifact '${uri}'`, { uri });
    return c.json(artifact);
  });

  return api;
}
