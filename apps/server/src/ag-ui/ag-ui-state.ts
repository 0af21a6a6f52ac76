/** One tool call as the AG-UI stream has told it so far. */
export interface AgUiToolCall {
  readonly name: string;
  /** TOOL_CALL_END sent (the arguments are complete). */
  ended: boolean;
  /** TOOL_CALL_RESULT sent. */
  resulted: boolean;
  /** The recorded answer to its confirmation (false: denied or timed out). */
  approved: boolean | null;
  reason: string | null;
}

/**
 * What the AG-UI encoder remembers between events: open text and reasoning messages, the open
 * step, every tool call, and the plan (the run's shared state). Message ids come from event
 * sequences, so the same events give the same stream.
 */
export interface AgUiState {
  text: string | null;
  reasoning: string | null;
  step: string | null;
  readonly tools: Map<string, AgUiToolCall>;
  /** The state last told to the client in this stream (`null`: no STATE_SNAPSHOT yet in this stream). */
  sentState: { plan: unknown } | null;
}

/** A fresh state: nothing open. */
export function createAgUiState(): AgUiState {
  return { text: null, reasoning: null, step: null, tools: new Map(), sentState: null };
}
