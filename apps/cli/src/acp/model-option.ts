// The session's model as an ACP config option (category `model`), offered when the config
// declares more than one model; `session/set_config_option` switches a session to another.
import type { Agent } from '@a3s-lab/code';
import { RequestError } from '@agentclientprotocol/sdk';
import type { SessionConfigOption } from '@agentclientprotocol/sdk';

/** The config option id of the model. */
export const MODEL_OPTION_ID = 'model';

/** Every `provider/model` the config declares, in order. */
export function declaredModels(agent: Agent): { value: string; name: string }[] {
  return agent.config.providers.flatMap((provider) => provider.models.map((model) => ({ value: `${provider.name}/${model.id}`, name: model.name ?? `${provider.name}/${model.id}` })));
}

/** The config options of a session using `current`: the model select, or none for a single model. */
export function configOptions(agent: Agent, current: string): SessionConfigOption[] {
  const models = declaredModels(agent);
  if (models.length < 2) return [];
  return [{ type: 'select', id: MODEL_OPTION_ID, name: 'Model', category: 'model', description: 'The model this session talks to', currentValue: current, options: models }];
}

/** Checks a `session/set_config_option` request and returns the model it selects. */
export function selectedModel(agent: Agent, configId: string, value: unknown): string {
  const models = declaredModels(agent);
  if (configId !== MODEL_OPTION_ID || models.length < 2) throw RequestError.invalidParams({ configId }, `unknown config option '${configId}'${models.length < 2 ? '' : ` (only '${MODEL_OPTION_ID}')`}`);
  if (typeof value !== 'string' || !models.some((m) => m.value === value)) {
    throw RequestError.invalidParams({ configId, value, accepted: models.map((m) => m.value) }, `model must be one of ${models.map((m) => m.value).join(', ')}`);
  }
  return value;
}
