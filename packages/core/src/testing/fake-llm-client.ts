// A scripted LlmClient and the stream-event builders of its turns (the `/testing` subpath).
import type { LlmCallOptions, LlmClient, LlmContentPart, LlmRequest, LlmStreamEvent, LlmUsage } from '../llm/llm-client.js';

/** One scripted model response: events to stream, or a function of the request producing them. */
export type ScriptStep =
  | readonly LlmStreamEvent[]
  | ((request: LlmRequest, options: LlmCallOptions | undefined) => readonly LlmStreamEvent[] | AsyncIterable<LlmStreamEvent>);

/**
 * A fake {@link LlmClient} that answers each `stream` call with the next scripted step, for host
 * and tool tests that need no HTTP (the scripted model server of `@a3s-lab/code-testing` drives
 * the real provider clients instead).
 *
 * @example
 * const llm = new FakeLlmClient([toolTurn([{ id: 'c1', name: 'read', input: { path: 'a.txt' } }]), textTurn('done')]);
 */
export class FakeLlmClient implements LlmClient {
  readonly provider = 'fake';
  readonly model = 'fake-model';
  /** Every request, deep-copied when it was made. */
  readonly requests: LlmRequest[] = [];
  readonly #script: ScriptStep[];

  constructor(script: readonly ScriptStep[]) {
    this.#script = [...script];
  }

  /** Appends steps to the script. */
  push(...steps: ScriptStep[]): void {
    this.#script.push(...steps);
  }

  /** Scripted steps not used yet. */
  get remaining(): number {
    return this.#script.length;
  }

  async *stream(request: LlmRequest, options?: LlmCallOptions): AsyncIterable<LlmStreamEvent> {
    this.requests.push(structuredClone({ system: request.system, messages: request.messages, tools: request.tools, ...(request.maxTokens === undefined ? {} : { maxTokens: request.maxTokens }) }));
    const step = this.#script.shift();
    if (step === undefined) throw new Error(`FakeLlmClient: no scripted response for request ${this.requests.length}`);
    const events = typeof step === 'function' ? step(request, options) : step;
    for await (const event of events as AsyncIterable<LlmStreamEvent>) {
      options?.abortSignal?.throwIfAborted();
      yield event;
    }
  }
}

const USAGE: LlmUsage = { inputTokens: 10, outputTokens: 5 };

/** A model turn answering with text only. */
export function textTurn(text: string, usage: LlmUsage = USAGE): LlmStreamEvent[] {
  return [
    { type: 'attempt_start', attempt: 1 },
    { type: 'text_delta', text },
    { type: 'message_end', stopReason: 'end_turn', usage, content: [{ type: 'text', text }] },
  ];
}

/** A scripted tool call; `raw` makes its arguments invalid JSON. */
export interface FakeCall {
  readonly id: string;
  readonly name: string;
  readonly input?: unknown;
  readonly raw?: string;
}

/** The stream events of `calls` (start, one delta, end), without attempt_start / message_end. */
export function callEvents(calls: readonly FakeCall[]): LlmStreamEvent[] {
  return calls.flatMap((c): LlmStreamEvent[] => [
    { type: 'tool_call_start', id: c.id, name: c.name },
    { type: 'tool_call_delta', id: c.id, partialJson: c.raw ?? JSON.stringify(c.input ?? {}) },
    c.raw === undefined ? { type: 'tool_call_end', id: c.id, name: c.name, input: c.input ?? {} } : { type: 'tool_call_end', id: c.id, name: c.name, input: undefined, invalidInput: c.raw },
  ]);
}

/** The assistant content of a turn requesting `calls`. */
export function callContent(calls: readonly FakeCall[], text?: string): LlmContentPart[] {
  return [...(text === undefined ? [] : [{ type: 'text' as const, text }]), ...calls.map((c) => ({ type: 'tool_call' as const, id: c.id, name: c.name, input: c.input ?? {} }))];
}

/** A model turn requesting `calls`. */
export function toolTurn(calls: readonly FakeCall[], usage: LlmUsage = USAGE): LlmStreamEvent[] {
  return [{ type: 'attempt_start', attempt: 1 }, ...callEvents(calls), { type: 'message_end', stopReason: 'tool_use', usage, content: callContent(calls) }];
}
