import { describe, expect, it } from 'vitest';
import { formatSseMessage } from './format-sse-message.js';
import { readSseEvents } from './read-sse-events.js';

const bodyOf = (chunks: readonly string[]): ReadableStream<Uint8Array> =>
  new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
      controller.close();
    },
  });

describe('formatSseMessage / readSseEvents', () => {
  it('writes id, event and one data line per line; refuses CR/LF in ids; unsafe event names become the default event', () => {
    expect(formatSseMessage({ id: '7', event: 'text_delta', data: '{"a":1}' })).toBe('id: 7\nevent: text_delta\ndata: {"a":1}\n\n');
    expect(formatSseMessage({ data: 'a\nb\r\nc' })).toBe('data: a\ndata: b\ndata: c\n\n');
    expect(formatSseMessage({ event: 'x\nid: 99', data: 'd' })).toBe('data: d\n\n');
    expect(() => formatSseMessage({ id: '1\n', data: 'd' })).toThrow(TypeError);
  });

  it('round-trips messages split at any byte, with comments and CRLF line ends', async () => {
    const text = `: keep-alive\n\n${formatSseMessage({ id: '1', event: 'a', data: 'x\ny' })}${formatSseMessage({ data: 'z' }).replace(/\n/g, '\r\n')}`;
    for (const size of [1, 3, 1000]) {
      const chunks: string[] = [];
      for (let i = 0; i < text.length; i += size) chunks.push(text.slice(i, i + size));
      const messages = [];
      for await (const message of readSseEvents(bodyOf(chunks))) messages.push(message);
      expect(messages).toEqual([
        { id: '1', event: 'a', data: 'x\ny' },
        { id: null, event: 'message', data: 'z' },
      ]);
    }
  });
});
