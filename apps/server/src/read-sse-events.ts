import { EventSourceParserStream } from 'eventsource-parser/stream';

/** One server-sent event as received. */
export interface SseMessage {
  /** `event:` field; `message` when absent. */
  readonly event: string;
  /** `data:` lines joined by `\n`. */
  readonly data: string;
  /** `id:` field, or null when the event had none. */
  readonly id: string | null;
}

/**
 * Parses an SSE response body (`text/event-stream`) into messages, for Node clients of the
 * server (tests, the benchmark, hosts proxying the stream), with `eventsource-parser` (the WHATWG
 * parsing rules: comments such as `: keep-alive` skipped, CRLF / CR / LF line ends, a BOM, `id`
 * per event). Cancelling the iteration cancels the body.
 */
export async function* readSseEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<SseMessage> {
  const reader = body.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream()).getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      yield { event: value.event ?? 'message', data: value.data, id: value.id ?? null };
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}
