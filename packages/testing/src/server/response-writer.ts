import type { ServerResponse } from 'node:http';
import type { StreamFrame } from './stream-frame.js';

/** Resolves after `ms`, or early (without error) when `signal` aborts. Zero resolves at once. */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0 || signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/** True once the response can no longer be written (client gone, socket cut, server closing). */
export function isGone(response: ServerResponse): boolean {
  return response.destroyed || response.writableEnded;
}

/** Writes a complete JSON response. */
export function writeJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Readonly<Record<string, string>>,
): void {
  if (isGone(response)) return;
  const bytes = Buffer.from(JSON.stringify(body));
  response.writeHead(status, { ...headers, 'content-type': 'application/json', 'content-length': String(bytes.length) });
  response.end(bytes);
}

/**
 * Writes `text`, waits until it reached the kernel, then destroys the socket: the client sees a
 * connection that broke in the middle of the body, as when a proxy or the provider drops it.
 */
export function writeThenCut(response: ServerResponse, text: string | Uint8Array): Promise<void> {
  return new Promise((resolve) => {
    if (isGone(response)) {
      resolve();
      return;
    }
    const cut = (): void => {
      response.socket?.destroy();
      response.destroy();
      resolve();
    };
    if (text.length === 0) {
      response.flushHeaders();
      // flushHeaders queues the header bytes; give them one turn to leave before cutting.
      setImmediate(cut);
      return;
    }
    response.write(text, cut);
  });
}

/** Options of {@link writeStream}. */
export interface WriteStreamOptions {
  /** Delay between frames, ms; 0 writes everything in one go. */
  readonly chunkDelayMs: number;
  /** Cut the connection after this many frames; `undefined` ends the stream normally. */
  readonly cutAfter: number | undefined;
  /** Aborted when the server closes. */
  readonly signal: AbortSignal;
}

/** Writes SSE `frames` (headers must already be set with `writeHead`). */
export async function writeStream(response: ServerResponse, frames: readonly StreamFrame[], options: WriteStreamOptions): Promise<void> {
  const limit = options.cutAfter === undefined ? frames.length : Math.max(0, Math.min(options.cutAfter, frames.length));
  if (options.chunkDelayMs <= 0) {
    // The fast path: one write per response keeps 50-turn benchmark sessions cheap.
    let text = '';
    for (let index = 0; index < limit; index += 1) text += frames[index]?.text ?? '';
    if (options.cutAfter === undefined) response.end(text);
    else await writeThenCut(response, text);
    return;
  }
  for (let index = 0; index < limit; index += 1) {
    if (index > 0) await pause(options.chunkDelayMs, options.signal);
    if (isGone(response) || options.signal.aborted) return;
    response.write(frames[index]?.text ?? '');
  }
  if (options.cutAfter === undefined) response.end();
  else await writeThenCut(response, '');
}
