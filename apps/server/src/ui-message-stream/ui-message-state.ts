/** Where one tool part of the assistant message stands, as the client's message state has it. */
export interface ToolPartState {
  readonly toolName: string;
  /** `input`: input streaming or available; `asked`: approval requested; `answered`: approval responded; `done`: an output, error or denial was sent. */
  phase: 'input-streaming' | 'input' | 'asked' | 'answered' | 'done';
  approvalId: string | null;
  /** The answer the run recorded (false for a denial or a timeout). */
  approved: boolean | null;
  /** Created for a confirmation of a call this run's model did not make (a subagent's child call). */
  readonly foreign: boolean;
}

/**
 * What the encoder remembers between events: the open text / reasoning part, whether a step is
 * open, and every tool part. Part ids are derived from the sequence of the event that opened the
 * part, so a replay of the same events yields the same message.
 */
export interface UIMessageState {
  text: string | null;
  reasoning: string | null;
  inStep: boolean;
  readonly tools: Map<string, ToolPartState>;
  /** Tool parts opened in the current step (a retried turn removes them with `reset-step`). */
  stepTools: string[];
}

/** A fresh state: nothing open. */
export function createUIMessageState(): UIMessageState {
  return { text: null, reasoning: null, inStep: false, tools: new Map(), stepTools: [] };
}
