import type { LlmStreamEvent, LlmUsage } from '../llm-client.js';

/** `a + b`, field by field; a cache field is present when either side has it. */
export function addUsage(a: LlmUsage | undefined, b: LlmUsage): LlmUsage {
  if (a === undefined) return b;
  const cacheRead = a.cacheReadTokens === undefined && b.cacheReadTokens === undefined ? undefined : (a.cacheReadTokens ?? 0) + (b.cacheReadTokens ?? 0);
  const cacheWrite = a.cacheWriteTokens === undefined && b.cacheWriteTokens === undefined ? undefined : (a.cacheWriteTokens ?? 0) + (b.cacheWriteTokens ?? 0);
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    ...(cacheRead === undefined ? {} : { cacheReadTokens: cacheRead }),
    ...(cacheWrite === undefined ? {} : { cacheWriteTokens: cacheWrite }),
  };
}

function isZero(usage: LlmUsage): boolean {
  return usage.inputTokens + usage.outputTokens + (usage.cacheReadTokens ?? 0) + (usage.cacheWriteTokens ?? 0) === 0;
}

/**
 * `event` with the usage billed by earlier, failed attempts of the same call added, when it is
 * the `message_end` (their prompt was read all the same). Any other event, or nothing spent,
 * is returned as it is.
 */
export function withBilledUsage(event: LlmStreamEvent, spent: LlmUsage | undefined): LlmStreamEvent {
  if (event.type !== 'message_end' || spent === undefined || isZero(spent)) return event;
  return { ...event, usage: { ...event.usage, ...addUsage(event.usage, spent) } };
}

/** `{ billedUsage }` for the details of a call's final error, when its attempts billed anything. */
export function billedUsageDetail(spent: LlmUsage | undefined): { billedUsage?: LlmUsage } {
  return spent === undefined || isZero(spent) ? {} : { billedUsage: spent };
}
