import type { InvocationRequest } from '@a3s-lab/code-core/kernel';
import type { ToolResult } from '@a3s-lab/code-core';
import type { HostCallRequest } from './features/feature-context.js';
import type { SessionEventBus } from './session-event-bus.js';

/**
 * Calls outside the conversation (host-direct, verification): their events stay out of the
 * running run, they stop when the session closes, and `settled()` lets close() wait for them
 * (the workspace must not close under a running tool).
 */
export class HostCalls {
  readonly #invoke: (request: InvocationRequest) => Promise<ToolResult>;
  readonly #bus: SessionEventBus;
  readonly #closeSignal: AbortSignal;
  readonly #running = new Set<Promise<unknown>>();
  readonly #idPrefix = `host_${Math.floor(Math.random() * 0x100000000).toString(36)}_`;
  #counter = 0;

  /** `invoke` is the session kernel's. */
  constructor(invoke: (request: InvocationRequest) => Promise<ToolResult>, bus: SessionEventBus, closeSignal: AbortSignal) {
    this.#invoke = invoke;
    this.#bus = bus;
    this.#closeSignal = closeSignal;
  }

  call(request: HostCallRequest): Promise<ToolResult> {
    const signal = request.abortSignal === undefined ? this.#closeSignal : AbortSignal.any([this.#closeSignal, request.abortSignal]);
    const toolId = this.#idPrefix + (this.#counter += 1).toString(36);
    this.#bus.trackHostCall(toolId);
    const call = this.#invoke({ toolName: request.toolName, args: request.args, origin: request.origin, abortSignal: signal, toolId });
    const settled = call.then(
      () => undefined,
      () => undefined,
    );
    this.#running.add(settled);
    void settled.then(() => {
      this.#running.delete(settled);
      this.#bus.untrackHostCall(toolId);
    });
    return call;
  }

  /** Resolves once every call started so far has settled. */
  async settled(): Promise<void> {
    await Promise.all([...this.#running]);
  }
}
