/**
 * The chunks of the AI SDK's UI message stream protocol (`x-vercel-ai-ui-message-stream: v1`)
 * that this host sends, written against the protocol's documentation: every chunk is one SSE
 * `data:` line holding one JSON object with a `type`, and the stream ends with `data: [DONE]`.
 * `ai` itself is only a test dependency: the tests read these chunks with its own client.
 */
export type UIMessageChunk =
  | { readonly type: 'start'; readonly messageId: string; readonly messageMetadata?: Readonly<Record<string, unknown>> }
  | { readonly type: 'start-step' }
  | { readonly type: 'finish-step' }
  | { readonly type: 'reset-step' }
  | { readonly type: 'text-start'; readonly id: string }
  | { readonly type: 'text-delta'; readonly id: string; readonly delta: string }
  | { readonly type: 'text-end'; readonly id: string }
  | { readonly type: 'reasoning-start'; readonly id: string }
  | { readonly type: 'reasoning-delta'; readonly id: string; readonly delta: string }
  | { readonly type: 'reasoning-end'; readonly id: string }
  | { readonly type: 'tool-input-start'; readonly toolCallId: string; readonly toolName: string }
  | { readonly type: 'tool-input-delta'; readonly toolCallId: string; readonly inputTextDelta: string }
  | { readonly type: 'tool-input-available'; readonly toolCallId: string; readonly toolName: string; readonly input: unknown }
  | { readonly type: 'tool-approval-request'; readonly approvalId: string; readonly toolCallId: string; readonly reason?: string }
  | { readonly type: 'tool-approval-response'; readonly approvalId: string; readonly approved: boolean; readonly reason?: string }
  | { readonly type: 'tool-output-available'; readonly toolCallId: string; readonly output: unknown }
  | { readonly type: 'tool-output-error'; readonly toolCallId: string; readonly errorText: string }
  | { readonly type: 'tool-output-denied'; readonly toolCallId: string }
  | { readonly type: `data-${string}`; readonly id?: string; readonly data: unknown; readonly transient?: boolean }
  | { readonly type: 'error'; readonly errorText: string }
  | { readonly type: 'abort'; readonly reason?: string }
  | { readonly type: 'finish'; readonly finishReason: UIFinishReason; readonly messageMetadata?: Readonly<Record<string, unknown>> };

/** The protocol's finish reasons this host uses. */
export type UIFinishReason = 'stop' | 'tool-calls' | 'error' | 'other';

/** The response header that marks a UI message stream. */
export const UI_MESSAGE_STREAM_HEADERS: Readonly<Record<string, string>> = {
  'x-vercel-ai-ui-message-stream': 'v1',
  'Cache-Control': 'no-store',
  'X-Accel-Buffering': 'no',
};

/** One chunk as the SSE text the protocol sends (`data: <json>` and a blank line). */
export function formatUIMessageChunk(chunk: UIMessageChunk): string {
  return `data: ${JSON.stringify(chunk)}\n\n`;
}

/** The protocol's end-of-stream marker. */
export const UI_MESSAGE_STREAM_DONE = 'data: [DONE]\n\n';
