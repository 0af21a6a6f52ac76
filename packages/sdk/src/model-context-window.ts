import { resolveModel } from '@a3s-lab/code-config';
import type { AgentConfig } from '@a3s-lab/code-config';

/**
 * The context window (`limit.context`) the configuration declares for `model`, or `undefined`
 * when the model, its provider or the limit is not declared. Session creation uses it as the
 * default of `maxContextTokens`, so auto-compaction works against the real window; a host's own
 * `maxContextTokens` still wins. Never throws: a bad model reference is reported by the session
 * options validation and the client factory, with their own messages.
 */
export function modelContextWindow(config: AgentConfig, model: unknown): number | undefined {
  if (typeof model !== 'string') return undefined;
  try {
    const context = resolveModel(config, model).modelConfig.limit?.context;
    return typeof context === 'number' && Number.isInteger(context) && context > 0 ? context : undefined;
  } catch {
    return undefined;
  }
}
