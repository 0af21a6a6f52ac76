import type { GenerationService } from '@a3s-lab/code-core/kernel';
import type { LlmClient, LlmRequest, LlmStreamEvent } from '@a3s-lab/code-core';
import type { SessionFeature } from '../session-feature.js';
import type { FeatureContext } from './feature-context.js';

/**
 * Generations outside the turn loop for tools (`generate_object`): the `generation` service.
 * Each checks the budget first, runs the generation hooks of its `purpose`, and its usage counts
 * in the running run and in the budget.
 */
export function generationFeature(ctx: FeatureContext): SessionFeature {
  const generation: GenerationService = {
    provider: ctx.init.llm.provider,
    model: ctx.init.llm.model,
    stream: (request, options) => generate(ctx, ctx.llm(options.purpose), request, options.signal),
  };
  return { name: 'generation', services: { generation } };
}

async function* generate(ctx: FeatureContext, llm: LlmClient, request: LlmRequest, signal: AbortSignal): AsyncIterable<LlmStreamEvent> {
  ctx.budget?.check();
  const timeoutMs = ctx.options.llmApiTimeoutMs;
  for await (const event of llm.stream(request, { abortSignal: signal, ...(timeoutMs === undefined ? {} : { timeoutMs }) })) {
    if (event.type === 'message_end') ctx.usage.record(event.usage);
    yield event;
  }
}
