import type { Attributes, Span } from '@opentelemetry/api';
import * as A from './gen-ai-attributes.js';
import { genAiMessages, genAiSystemInstructions } from './gen-ai-messages.js';
import { safeJson } from './call-trace.js';
import { SPAN_KIND_CLIENT, SPAN_STATUS_ERROR } from './otel-api.js';
import type { LlmCallOptions, LlmClient, LlmRequest, LlmStreamEvent, LlmUsage } from '@a3s-lab/code-core';
import type { SessionTelemetry } from './session-telemetry.js';
import { errorTypeOf } from './session-telemetry.js';

/**
 * The session's model with a `chat {model}` CLIENT span around every generation (a child of the
 * run, or of its `plan` phase), retries as `gen_ai.retry` events, and the token-usage and
 * operation-duration histograms. `purpose` (`turn`, `compaction`, `planning`, `generate_object`)
 * is `a3s_code.generation.purpose`. Content is recorded only with `captureContent`, redacted.
 */
export function tracedLlmClient(inner: LlmClient, telemetry: SessionTelemetry, purpose: string): LlmClient {
  const provider = A.providerAttributes(inner.provider, telemetry.legacyAttributes);
  return {
    provider: inner.provider,
    model: inner.model,
    async *stream(request: LlmRequest, options?: LlmCallOptions): AsyncIterable<LlmStreamEvent> {
      const scope = telemetry.generationScope();
      if (scope.tracer === null && scope.instruments === null) {
        yield* inner.stream(request, options);
        return;
      }
      const base: Attributes = { [A.GEN_AI_OPERATION_NAME]: 'chat', ...provider, [A.GEN_AI_REQUEST_MODEL]: inner.model };
      let span: Span | null = null;
      if (scope.tracer !== null) {
        span = scope.tracer.startSpan(
          `chat ${inner.model}`,
          { kind: SPAN_KIND_CLIENT, attributes: { ...base, [A.A3S_GENERATION_PURPOSE]: purpose, ...(request.maxTokens === undefined ? {} : { [A.GEN_AI_REQUEST_MAX_TOKENS]: request.maxTokens }) } },
          scope.parent ?? undefined,
        );
        if (telemetry.captureContent && span.isRecording()) {
          span.setAttribute(A.GEN_AI_SYSTEM_INSTRUCTIONS, safeJson(telemetry.security.redactValue(genAiSystemInstructions(request.system))));
          span.setAttribute(A.GEN_AI_INPUT_MESSAGES, safeJson(telemetry.security.redactValue(genAiMessages(request.messages))));
        }
      }
      const started = performance.now();
      let usage: LlmUsage | undefined;
      let failure: unknown;
      let failed = false;
      try {
        for await (const event of inner.stream(request, options)) {
          if (event.type === 'attempt_start' && event.attempt > 1) {
            span?.addEvent('gen_ai.retry', { 'a3s_code.attempt': event.attempt, ...(event.retryReason === undefined ? {} : { 'a3s_code.retry.reason': event.retryReason }) });
          } else if (event.type === 'message_end') {
            usage = event.usage;
            if (span !== null) {
              span.setAttributes({
                [A.GEN_AI_RESPONSE_MODEL]: inner.model,
                [A.GEN_AI_RESPONSE_FINISH_REASONS]: [event.stopReason],
                [A.GEN_AI_USAGE_INPUT_TOKENS]: event.usage.inputTokens,
                [A.GEN_AI_USAGE_OUTPUT_TOKENS]: event.usage.outputTokens,
                ...(event.usage.cacheReadTokens === undefined ? {} : { [A.GEN_AI_USAGE_CACHE_READ_TOKENS]: event.usage.cacheReadTokens }),
                ...(event.usage.cacheWriteTokens === undefined ? {} : { [A.GEN_AI_USAGE_CACHE_CREATION_TOKENS]: event.usage.cacheWriteTokens }),
              });
              if (telemetry.captureContent) span.setAttribute(A.GEN_AI_OUTPUT_MESSAGES, safeJson(telemetry.security.redactValue(genAiMessages([{ role: 'assistant', content: event.content }]).map((m) => ({ ...m, finish_reason: event.stopReason })))));
            }
          }
          yield event;
        }
      } catch (error) {
        failed = true;
        failure = error;
        throw error;
      } finally {
        const errorType = failed ? errorTypeOf(failure) : undefined;
        if (span !== null) {
          if (errorType !== undefined) {
            span.setAttribute(A.ERROR_TYPE, errorType);
            span.setStatus({ code: SPAN_STATUS_ERROR, message: errorType });
          }
          span.end();
        }
        const instruments = scope.instruments;
        if (instruments !== null) {
          const attributes: Attributes = { ...base, ...(usage === undefined ? {} : { [A.GEN_AI_RESPONSE_MODEL]: inner.model }), ...(errorType === undefined ? {} : { [A.ERROR_TYPE]: errorType }) };
          instruments.operationDuration.record((performance.now() - started) / 1000, attributes);
          if (usage !== undefined) {
            instruments.tokenUsage.record(usage.inputTokens, { ...attributes, [A.GEN_AI_TOKEN_TYPE]: 'input' });
            instruments.tokenUsage.record(usage.outputTokens, { ...attributes, [A.GEN_AI_TOKEN_TYPE]: 'output' });
          }
        }
      }
    },
  };
}
