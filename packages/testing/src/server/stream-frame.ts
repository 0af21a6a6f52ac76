/** One serialised SSE event of a rendered stream, ready to be written to the socket. */
export interface StreamFrame {
  /** The complete frame text, including the terminating blank line. */
  readonly text: string;
  /** Set on frames that carry a piece of a tool call's argument JSON. */
  readonly toolInputChunk?: { readonly call: number; readonly chunk: number; readonly of: number };
}

/** A frame `event: <name>\ndata: <json>\n\n` (the Anthropic framing). */
export function namedEventFrame(name: string, data: unknown): StreamFrame {
  return { text: `event: ${name}\ndata: ${JSON.stringify(data)}\n\n` };
}

/** A frame `data: <json>\n\n` (the OpenAI framing). */
export function dataFrame(data: unknown): StreamFrame {
  return { text: `data: ${JSON.stringify(data)}\n\n` };
}

/**
 * Number of frames to write before cutting the connection in the middle of the first tool
 * call's argument stream: after about half of its chunks, at least one. `undefined` when no
 * frame carries tool input.
 */
export function framesBeforeMidToolInputCut(frames: readonly StreamFrame[]): number | undefined {
  const first = frames.findIndex((frame) => frame.toolInputChunk !== undefined);
  if (first < 0) return undefined;
  const marker = frames[first]?.toolInputChunk;
  if (marker === undefined) return undefined;
  const keep = Math.max(1, Math.floor(marker.of / 2));
  let seen = 0;
  for (let index = first; index < frames.length; index += 1) {
    const chunk = frames[index]?.toolInputChunk;
    if (chunk !== undefined && chunk.call === marker.call) {
      seen += 1;
      if (seen === keep) return index + 1;
    }
  }
  return undefined;
}
