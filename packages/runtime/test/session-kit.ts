// Test helpers for the session runtime: a scripted fake LlmClient, turn builders and small tools
// with controllable timing, plus an AgentSession factory over an in-memory workspace.
import type { AgentEvent, AnyTool, SessionOptions, Tool, ToolOutput } from '@a3s-lab/code-core';
import { AgentSession } from '../src/session/agent-session.js';
import { resolveSessionOptions } from '../src/session/resolve-session-options.js';
import { MemoryWorkspaceBackend } from '@a3s-lab/code-core/testing';

export { FakeLlmClient as FakeLlm, callContent, callEvents, textTurn, toolTurn } from '@a3s-lab/code-core/testing';
export type { FakeCall, ScriptStep } from '@a3s-lab/code-core/testing';
import type { FakeLlmClient as FakeLlm } from '@a3s-lab/code-core/testing';

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
