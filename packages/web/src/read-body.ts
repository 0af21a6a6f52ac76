import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import type { NodeTransports } from './node-transports.js';
import { webFailure } from './web-errors.js';

/** A body read under a byte cap. */
export interface CappedBody {
  readonly body: Uint8Array;
  /** True when the (decoded) body went on past the cap and was cut. */
  readonly truncated: boolean;
}

/**
 * Reads `response` through its content decoding (gzip, x-gzip, deflate, br, identity) and keeps at
 * most `maxBytes` DECODED bytes: a decompression bomb stops at the cap like any long body (zlib
 * emits bounded chunks, so the overshoot is one chunk, which is dropped). The streams are destroyed
 * as soon as the cap is reached, so the rest is never downloaded.
 */
export async function readCappedBody(response: IncomingMessage, maxBytes: number, zlib: NodeTransports['zlib']): Promise<CappedBody> {
  const encoding = String(response.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  let source: Readable = response;
  if (encoding !== 'identity' && encoding !== '') {
    const decoder = encoding === 'gzip' || encoding === 'x-gzip' ? zlib.createGunzip() : encoding === 'deflate' ? zlib.createInflate() : encoding === 'br' ? zlib.createBrotliDecompress() : null;
    if (decoder === null) {
      response.destroy();
      throw webFailure(`unsupported content-encoding '${encoding}'`, { type: 'transport', op: 'web_fetch', message: `unsupported content-encoding '${encoding}'` });
    }
    response.on('error', (error) => decoder.destroy(error));
    source = response.pipe(decoder);
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  let truncated = false;
  try {
    for await (const chunk of source as AsyncIterable<Buffer>) {
      const room = maxBytes - total;
      if (chunk.byteLength > room) {
        if (room > 0) chunks.push(chunk.subarray(0, room));
        total += Math.max(0, room);
        truncated = true;
        break;
      }
      chunks.push(chunk);
      total += chunk.byteLength;
    }
  } catch (error) {
    // zlib reports corrupt input as Z_* (gzip, deflate) or ERR__* (brotli) codes.
    if (/^(Z_|ERR__)/.test(String((error as { code?: unknown }).code))) {
      throw webFailure(`the ${encoding} body is corrupt`, { type: 'transport', op: 'web_fetch', message: `corrupt ${encoding} body` }, {}, error);
    }
    throw error;
  } finally {
    if (source !== response) source.destroy();
    response.destroy();
  }
  const body = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    body.set(chunk, at);
    at += chunk.byteLength;
  }
  return { body, truncated };
}
