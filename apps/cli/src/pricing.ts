/** Token prices of one model, US dollars per million tokens. */
export interface ModelPrice {
  readonly input: number;
  readonly output: number;
  /** Price of cached input read (Anthropic: 0.1x input; OpenAI: discounted input). */
  readonly cacheRead: number;
  /** Price of cache writes (Anthropic 5-minute cache: 1.25x input; OpenAI: none). */
  readonly cacheWrite: number;
}

/** Token counts of a run. */
export interface TokenUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cacheReadTokens: number;
  readonly cacheWriteTokens: number;
}

const anthropic = (input: number, output: number): ModelPrice => ({ input, output, cacheRead: input * 0.1, cacheWrite: input * 1.25 });
const openai = (input: number, output: number, cacheRead = input / 2): ModelPrice => ({ input, output, cacheRead, cacheWrite: input });

/**
 * Public list prices of well-known models, matched by model-id prefix (longest first), so dated
 * ids (`claude-sonnet-4-20250514`) match their family. Unknown models have no price: the CLI
 * then prints tokens only rather than a wrong cost.
 */
export const MODEL_PRICES: Readonly<Record<string, ModelPrice>> = Object.freeze({
  'claude-opus-4-5': anthropic(5, 25),
  'claude-opus-4': anthropic(15, 75),
  'claude-sonnet-4': anthropic(3, 15),
  'claude-3-7-sonnet': anthropic(3, 15),
  'claude-3-5-sonnet': anthropic(3, 15),
  'claude-haiku-4-5': anthropic(1, 5),
  'claude-3-5-haiku': anthropic(0.8, 4),
  'claude-3-haiku': anthropic(0.25, 1.25),
  'claude-3-opus': anthropic(15, 75),
  'gpt-4o-mini': openai(0.15, 0.6),
  'gpt-4o': openai(2.5, 10),
  'gpt-4.1-nano': openai(0.1, 0.4, 0.025),
  'gpt-4.1-mini': openai(0.4, 1.6, 0.1),
  'gpt-4.1': openai(2, 8, 0.5),
  'gpt-5-nano': openai(0.05, 0.4, 0.005),
  'gpt-5-mini': openai(0.25, 2, 0.025),
  'gpt-5': openai(1.25, 10, 0.125),
  'o4-mini': openai(1.1, 4.4, 0.275),
  'o3-mini': openai(1.1, 4.4, 0.55),
  o3: openai(2, 8, 0.5),
});

const PREFIXES = Object.keys(MODEL_PRICES).sort((a, b) => b.length - a.length);

/** The price of `model` (`provider/id` or a bare id), or `null` when it is not in the table. */
export function priceOf(model: string): ModelPrice | null {
  const id = model.includes('/') ? model.slice(model.indexOf('/') + 1) : model;
  const prefix = PREFIXES.find((p) => id === p || id.startsWith(`${p}-`) || id.startsWith(`${p}@`));
  return prefix === undefined ? null : (MODEL_PRICES[prefix] ?? null);
}

/** Cost in US dollars of `usage` on `model`, or `null` for an unknown model. */
export function costOf(model: string, usage: TokenUsage): number | null {
  const price = priceOf(model);
  if (price === null) return null;
  return (
    (usage.inputTokens * price.input + usage.outputTokens * price.output + usage.cacheReadTokens * price.cacheRead + usage.cacheWriteTokens * price.cacheWrite) / 1_000_000
  );
}
