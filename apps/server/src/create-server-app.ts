import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { createApiRoutes } from './api-routes.js';
import { createRequestGuard } from './request-guard.js';
import type { RequestGuardOptions } from './request-guard.js';
import { ServerError, toErrorResponse } from './server-error.js';
import type { SessionHost } from './session-host.js';
import { createUiRoutes } from './ui-routes.js';
import { createChatRoutes } from './ui-message-stream/chat-routes.js';
import { createAgUiRoutes } from './ag-ui/ag-ui-routes.js';
import { createFleetAgUiRoutes } from './fleet-host/fleet-ag-ui-routes.js';
import { createFleetApiRoutes } from './fleet-host/fleet-api-routes.js';
import { createFleetChatRoutes } from './fleet-host/fleet-chat-routes.js';
import { FleetHost } from './fleet-host/fleet-host.js';

/** What {@link createServerApp} wires together. */
export interface ServerAppOptions extends RequestGuardOptions {
  /** The sessions: this process's live ones under leases, or a fleet's (`startFleetServer`). */
  readonly host: SessionHost | FleetHost;
  /** Largest request body in bytes. */
  readonly maxBodyBytes: number;
  /** Serve the browser UI at `/`. */
  readonly ui: boolean;
  /** End event streams after this many ms (0: never); clients reconnect with Last-Event-ID. */
  readonly maxStreamMs: number;
}

/**
 * The Hono application: request guard (Host, Origin, bearer token), body cap, the `/api` routes
 * and the UI; every failure answers `{ error: { code, message, details? } }` with its status.
 */
export function createServerApp(options: ServerAppOptions): Hono {
  const app = new Hono();
  app.onError((error, c) => {
    const { status, body } = toErrorResponse(error);
    if (body.error.code === 'UNAUTHORIZED') c.header('WWW-Authenticate', 'Bearer');
    if (body.error.code === 'SESSION_LEASED') c.header('Retry-After', '1');
    c.header('Cache-Control', 'no-store');
    return c.json(body, status as 400);
  });
  app.notFound((c) => c.json({ error: { code: 'NOT_FOUND', message: `no route ${c.req.method} ${c.req.path}` } }, 404));
  app.use('*', createRequestGuard(options));
  app.use(
    '/api/*',
    bodyLimit({
      maxSize: options.maxBodyBytes,
      onError: () => {
        throw new ServerError('BODY_TOO_LARGE', `request body larger than ${options.maxBodyBytes} bytes`, { maxBodyBytes: options.maxBodyBytes });
      },
    }),
  );
  app.use('/api/*', async (c, next) => {
    await next();
    c.header('Cache-Control', 'no-store');
  });
  if (options.host instanceof FleetHost) {
    // A fleet-backed API process: the same routes over fleet runs.
    app.route('/api', createFleetApiRoutes(options.host, { maxStreamMs: options.maxStreamMs }));
    app.route('/api', createFleetChatRoutes(options.host));
    app.route('/api', createFleetAgUiRoutes(options.host));
  } else {
    app.route('/api', createApiRoutes(options.host, { maxStreamMs: options.maxStreamMs }));
    app.route('/api', createChatRoutes(options.host));
    app.route('/api', createAgUiRoutes(options.host));
  }
  if (options.ui) app.route('/', createUiRoutes());
  return app;
}
