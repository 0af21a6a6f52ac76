import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { SSEStreamingApi } from 'hono/streaming';

/** Interval of SSE keep-alive comments (so idle proxies do not cut a stream waiting on a confirmation). */
export const SSE_KEEPALIVE_MS = 15_000;

/** Headers of every SSE answer: never cached, never buffered by a proxy (nginx honours `X-Accel-Buffering`). */
export const SSE_HEADERS: Readonly<Record<string, string>> = { 'Cache-Control': 'no-store', 'X-Accel-Buffering': 'no' };

/** How {@link streamSseText} frames one SSE answer. */
export interface SseTextOptions {
  /** Response headers, set before the stream opens. */
  readonly headers: Readonly<Record<string, string>>;
  /** When above 0, the stream's signal aborts after this many ms (the client reconnects from its last id). */
  readonly maxStreamMs?: number;
  /** Called once when the stream is over, however it ended (releases what the request held). */
  readonly release?: () => void;
}

/**
 * An SSE answer whose body `write` produces: `headers` set, a keep-alive comment every
 * {@link SSE_KEEPALIVE_MS}, and a signal that aborts when the client goes away, a keep-alive
 * write fails or `maxStreamMs` passes. A closed connection stops this stream only: whatever run
 * it shows goes on (cancel is a request of its own). `release` runs after `write` settles.
 */
export function streamSseText(c: Context, options: SseTextOptions, write: (stream: SSEStreamingApi, signal: AbortSignal) => Promise<void>): Response {
  for (const [name, value] of Object.entries(options.headers)) c.header(name, value);
  return streamSSE(c, async (stream) => {
    const abort = new AbortController();
    stream.onAbort(() => abort.abort());
    const keepAlive = setInterval(() => void stream.write(': keep-alive\n\n').catch(() => abort.abort()), SSE_KEEPALIVE_MS);
    const maxStreamMs = options.maxStreamMs ?? 0;
    const lifetime = maxStreamMs > 0 ? setTimeout(() => abort.abort(), maxStreamMs) : null;
    try {
      await write(stream, abort.signal);
    } finally {
      clearInterval(keepAlive);
      if (lifetime !== null) clearTimeout(lifetime);
      options.release?.();
    }
  });
}
