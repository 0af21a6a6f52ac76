import { preloadArgumentValidators } from '@a3s-lab/code-core/kernel';
import type { LlmCallOptions, LlmClient, LlmRequest, LlmStreamEvent, WorkspaceBackend } from '@a3s-lab/code-core';

/**
 * Tells when the process has handed an HTTP request to the network: calls `onSent` once, after
 * the call, and returns a cancel (see `AgentSessionInit.whenRequestSent`).
 */
export type RequestSentSignal = (onSent: () => void) => () => void;

/**
 * `llm` with `prepare` run once, while the first of its streams whose request reaches the network
 * waits for the model (`whenRequestSent` tells when). Until then each stream arms the signal and
 * disarms it when it ends; after, streams pass straight through. A stream that sends nothing (a
 * replayed step, a blocked generation) prepares nothing.
 */
export function preparingLlmClient(llm: LlmClient, whenRequestSent: RequestSentSignal, prepare: () => void): LlmClient {
  let prepared = false;
  return {
    provider: llm.provider,
    model: llm.model,
    stream(request: LlmRequest, options?: LlmCallOptions): AsyncIterable<LlmStreamEvent> {
      if (prepared) return llm.stream(request, options);
      return (async function* () {
        const cancel = whenRequestSent(() => {
          if (prepared) return;
          prepared = true;
          prepare();
        });
        try {
          yield* llm.stream(request, options);
        } finally {
          cancel();
        }
      })();
    },
  };
}

/**
 * Loads what a session's first tool calls would load on their way: the registered precompiled
 * argument validators and the workspace's own parts (`WorkspaceBackend.prepare`: the local
 * backend's search engine). Never throws or rejects: a failure is left to the call that needs it.
 */
export function prepareTools(workspace: WorkspaceBackend): void {
  void preloadArgumentValidators();
  if (workspace.prepare !== undefined) void Promise.resolve().then(() => workspace.prepare?.()).catch(() => undefined);
}
