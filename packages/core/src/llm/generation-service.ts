import type { LlmRequest, LlmStreamEvent } from './llm-client.js';

/**
 * A session's model, for tools that generate (`generate_object`) and for the planner: each
 * generation runs the `generate_start` / `generate_end` hooks, counts its usage in the running
 * run and the session budget, and stops with the caller's signal.
 */
export interface GenerationService {
  /** Provider and model of the session, e.g. `anthropic` / `claude-sonnet-4-20250514`. */
  readonly provider: string;
  readonly model: string;
  /** Streams one generation. `purpose` names it in hook payloads (`generate_object`, `planning`...). */
  stream(request: LlmRequest, options: { readonly signal: AbortSignal; readonly purpose: string }): AsyncIterable<LlmStreamEvent>;
}

/** True when `value` is a {@link GenerationService} (how tools read `context.services.generation`). */
export function isGenerationService(value: unknown): value is GenerationService {
  return typeof value === 'object' && value !== null && typeof (value as Record<string, unknown>)['stream'] === 'function' && typeof (value as Record<string, unknown>)['model'] === 'string';
}
