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
 * server (tests, the benchmark, hosts proxying the stream). Comments (`: keep-alive`) are skipped;
 * CRLF, CR and LF line ends are all accepted.
 */
export async function* readSseEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<SseMessage> {
  const decoder = new TextDecoder();
  let buffer = '';
  let event = '';
  let data: string[] = [];
  let id: string | null = null;
  const reader = body.getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      for (;;) {
        const match = /\r\n|\r|\n/.exec(buffer);
        if (match === null) break;
        // A lone CR at the end may be the first half of CRLF: wait for more.
        if (match[0] === '\r' && match.index === buffer.length - 1) break;
        const line = buffer.slice(0, match.index);
        buffer = buffer.slice(match.index + match[0].length);
        if (line === '') {
          if (data.length > 0) yield { event: event === '' ? 'message' : event, data: data.join('\n'), id };
          event = '';
          data = [];
          id = null;
          continue;
        }
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon === -1 ? line : line.slice(0, colon);
        const raw = colon === -1 ? '' : line.slice(colon + 1);
        const text = raw.startsWith(' ') ? raw.slice(1) : raw;
        if (field === 'event') event = text;
        else if (field === 'data') data.push(text);
        else if (field === 'id') id = text;
      }
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}
