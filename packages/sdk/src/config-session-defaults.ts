import type { AgentConfig } from '@a3s-lab/code-config';
import type { SessionOptions } from '@a3s-lab/code-core';
import { SESSION_OPTION_NAMES } from '@a3s-lab/code-runtime';

/** The session options the agent config sets (same names as the session options). */
export function configSessionDefaults(config: AgentConfig): Record<string, unknown> {
  return Object.fromEntries(Object.entries(config).filter(([name, value]) => value !== undefined && SESSION_OPTION_NAMES.includes(name)));
}

/**
 * The config defaults a child session takes: how its calls and turns run (timeouts, breakers,
 * compaction, retention). Not the ones a delegation decides itself (tools, steps, permissions,
 * confirmation, budget, workers, planning) or that belong to the top-level session (storage).
 */
export function childConfigDefaults(config: AgentConfig): Record<string, unknown> {
  const defaults = configSessionDefaults(config);
  return Object.fromEntries(CHILD_CONFIG_DEFAULTS.filter((name) => defaults[name] !== undefined).map((name) => [name, defaults[name]]));
}

/** Session options of the agent config that child sessions take too. */
const CHILD_CONFIG_DEFAULTS = ['toolTimeoutMs', 'llmApiTimeoutMs', 'circuitBreakerThreshold', 'duplicateToolCallThreshold', 'autoCompact', 'autoCompactThreshold', 'artifactStoreLimits', 'retentionLimits'] as const satisfies readonly (keyof SessionOptions)[];
