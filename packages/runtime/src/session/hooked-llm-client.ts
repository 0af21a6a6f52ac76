import { CodeError } from '@a3s-lab/code-core';
import type { HookRegistry } from '@a3s-lab/code-core/kernel';
import type { LlmCallOptions, LlmClient, LlmRequest, LlmStreamEvent, LlmUsage } from '@a3s-lab/code-core';
import type { SessionTelemetry } from '../telemetry/session-telemetry.js';
import { tracedLlmClient } from '../telemetry/traced-llm-client.js';
import { usagePayload } from './usage-payload.js';

/** Where a generation happens, for hook payloads. */
export interface GenerationScope {
  readonly sessionId: string;
  /** The running run, or `null` (host-direct generations). */
  readonly runId: () => string | null;
  /** OpenTelemetry `chat` spans and GenAI metrics around each generation; default none. */
  readonly telemetry?: SessionTelemetry | null;
}

/**
 * The session's model with the `generate_start` / `generate_end` hooks around every generation
 * (`purpose`: `turn`, `compaction`, `generate_object`, `planning`). A `generate_start` hook that
 * blocks stops the generation with SESSION_ERROR before anything is sent; `generate_end` observes
 * the usage, stop reason or error. Hooks cannot modify a generation (these events carry no
 * arguments to rewrite): a `modified` result is ignored, as documented on the hook events.
 */
export function hookedLlmClient(model: LlmClient, hooks: HookRegistry, scope: GenerationScope, purpose: string): LlmClient {
  const inner = scope.telemetry == null ? model : tracedLlmClient(model, scope.telemetry, purpose);
  return {
    provider: inner.provider,
    model: inner.model,
    async *stream(request: LlmRequest, options?: LlmCallOptions): AsyncIterable<LlmStreamEvent> {
      const base = { session_id: scope.sessionId, run_id: scope.runId(), provider: inner.provider, model: inner.model, purpose, messages: request.messages.length, tools: request.tools.length };
      if (hooks.has('generate_start')) {
        const decision = await hooks.run('generate_start', base);
        if (decision.action === 'block' || decision.action === 'retry') {
          throw new CodeError('SESSION_ERROR', `generation blocked by hook${decision.hookId === undefined ? '' : ` '${decision.hookId}'`}: ${decision.reason ?? 'no reason given'}`, {
            details: { hook: decision.hookId ?? null, blocked: true, purpose },
          });
        }
      }
      if (!hooks.has('generate_end')) {
        yield* inner.stream(request, options);
        return;
      }
      let usage: LlmUsage | undefined;
      let stopReason: string | undefined;
      let failure: unknown;
      try {
        for await (const event of inner.stream(request, options)) {
          if (event.type === 'message_end') {
            usage = event.usage;
            stopReason = event.stopReason;
          }
          yield event;
        }
      } catch (error) {
        failure = error;
        throw error;
      } finally {
        const outcome =
          failure === undefined
            ? { ok: true, stop_reason: stopReason ?? null, usage: usage === undefined ? null : usagePayload(usage) }
            : { ok: false, error: { code: CodeError.isInstance(failure) ? failure.code : 'LLM_ERROR', message: failure instanceof Error ? failure.message : String(failure) } };
        await hooks.run('generate_end', { ...base, ...outcome }).catch(() => undefined);
      }
    },
  };
}
