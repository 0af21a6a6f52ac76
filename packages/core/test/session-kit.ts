// Test helpers for the session runtime: a scripted fake LlmClient, turn builders and small tools
// with controllable timing, plus an AgentSession factory over an in-memory workspace.
import type { AgentEvent } from '../src/events/agent-event.js';
import type { LlmCallOptions, LlmClient, LlmContentPart, LlmRequest, LlmStreamEvent, LlmUsage } from '../src/llm/llm-client.js';
import { AgentSession } from '../src/session/agent-session.js';
import { resolveSessionOptions } from '../src/session/session-options.js';
import type { SessionOptions } from '../src/session/session-options.js';
import { MemoryWorkspaceBackend } from '../src/testing/memory-workspace-backend.js';
import type { Tool } from '../src/tools/tool.js';
import type { AnyTool } from '../src/tools/tool-registry.js';
import type { ToolOutput } from '../src/tools/tool-result.js';

/** One scripted model response: events to stream, or a function of the request producing them. */
export type ScriptStep =
  | readonly LlmStreamEvent[]
  | ((request: LlmRequest, options: LlmCallOptions | undefined) => readonly LlmStreamEvent[] | AsyncIterable<LlmStreamEvent>);

/** A fake {@link LlmClient} that answers each `stream` call with the next scripted step. */
export class FakeLlm implements LlmClient {
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
    if (step === undefined) throw new Error(`FakeLlm: no scripted response for request ${this.requests.length}`);
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

/** A promise with its resolver, for latches. */
export function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** A tool `{ text: string }` that records calls; `run` decides the output. */
export interface ProbeTool extends Tool<{ text: string }> {
  readonly calls: string[];
}

/** Builds a probe tool. `readOnly` makes it fan-out capable. */
export function probeTool(
  name: string,
  options: { readonly readOnly?: boolean; readonly run?: (text: string, signal: AbortSignal) => Promise<ToolOutput> } = {},
): ProbeTool {
  const calls: string[] = [];
  return {
    name,
    description: `probe ${name}`,
    parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false },
    ...(options.readOnly === true ? { capabilities: () => ({ readOnly: true, idempotent: true, cancellationSafe: true, maxParallelism: 4 }) } : {}),
    calls,
    execute: async (args, context) => {
      calls.push(args.text);
      return options.run === undefined ? { output: `${name}:${args.text}` } : options.run(args.text, context.abortSignal);
    },
  };
}

/** Resolves when `signal` aborts. */
export function aborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
}

/** An AgentSession over a memory workspace with `tools`, scripted by `llm`, recording its events. */
export function makeSession(
  llm: FakeLlm,
  tools: readonly AnyTool[],
  options: SessionOptions = {},
  workspace: MemoryWorkspaceBackend = new MemoryWorkspaceBackend(),
): { session: AgentSession; events: AgentEvent[]; workspace: MemoryWorkspaceBackend } {
  const session = new AgentSession({ sessionId: 'sess-test', llm, workspace, tools, options: resolveSessionOptions(options) });
  const events: AgentEvent[] = [];
  session.subscribe((e) => events.push(e));
  return { session, events, workspace };
}

/** Polls `predicate` until true (bounded). */
export async function until(predicate: () => boolean, timeoutMs = 5000): Promise<void> {
  const start = Date.now();
  while (!predicate()) {
    if (Date.now() - start > timeoutMs) throw new Error('condition not reached');
    await new Promise((r) => setTimeout(r, 2));
  }
}
