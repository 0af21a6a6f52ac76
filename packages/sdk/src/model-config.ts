import { resolveModel } from '@a3s-lab/code-config';
import type { AgentConfig } from '@a3s-lab/code-config';
import { CodeError } from '@a3s-lab/code-core';

/**
 * The config to build `model`'s client from. A model its provider does not declare is usable
 * when the session says how large its window is (`maxContextTokens`, as the spec's Resilience
 * section describes): the config is extended with it. Without that it is a
 * SESSION_CONFIGURATION_ERROR that says both ways out.
 */
export function configForModel(config: AgentConfig, model: string, windowGiven: boolean): AgentConfig {
  try {
    resolveModel(config, model);
    return config;
  } catch (error) {
    const undeclared = resolveModel(config, model, { allowUndeclared: true });
    if (!windowGiven) {
      throw new CodeError('SESSION_CONFIGURATION_ERROR', `unknown model '${undeclared.model}' for provider '${undeclared.provider}': declare it under providers "${undeclared.provider}", or set maxContextTokens to use it undeclared`, {
        details: { field: 'model', model },
        cause: error,
      });
    }
    return { ...config, providers: config.providers.map((p) => (p.name === undeclared.provider ? { ...p, models: [...p.models, { id: undeclared.model }] } : p)) };
  }
}

/** SESSION_CONFIGURATION_ERROR when worker `worker`'s `model` is not declared by `config`. */
export function checkWorkerModel(config: AgentConfig, model: string, worker: string): void {
  try {
    resolveModel(config, model);
  } catch (error) {
    throw new CodeError('SESSION_CONFIGURATION_ERROR', `worker '${worker}' uses model '${model}', which the configuration does not declare: ${error instanceof Error ? error.message : String(error)}`, {
      details: { field: 'workerAgents.model', worker, model },
    });
  }
}
