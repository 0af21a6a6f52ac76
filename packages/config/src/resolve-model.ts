import { CodeError } from '@a3s-lab/code-core';
import type { ModelConfig, ProviderConfig } from './agent-config.js';

/** The result of {@link resolveModel}. */
export interface ResolvedModel {
  /** Provider name (before the first `/`). */
  readonly provider: string;
  /** Model id (after the first `/`; may itself contain `/`). */
  readonly model: string;
  /** The declared provider. */
  readonly providerConfig: ProviderConfig;
  /** The declared model, or `{ id }` for an undeclared one when `allowUndeclared` is set. */
  readonly modelConfig: ModelConfig;
}

/** Options of {@link resolveModel}. */
export interface ResolveModelOptions {
  /**
   * Accept a model the provider does not declare and return `modelConfig: { id }` for it (the
   * caller then supplies limits such as `maxContextTokens`). The provider must still be declared.
   * Default `false`: an undeclared model is a CONFIG_ERROR.
   */
  readonly allowUndeclared?: boolean;
}

/**
 * Finds `provider/model` in a config. The split is at the FIRST `/`, so model ids such as
 * `openrouter/meta-llama/llama-3` work.
 *
 * @throws CodeError CONFIG_ERROR when the reference is malformed, or names an unknown provider
 *   (`details.knownProviders`) or model (`details.knownModels`).
 */
export function resolveModel(config: { readonly providers: readonly ProviderConfig[] }, reference: string, options: ResolveModelOptions = {}): ResolvedModel {
  const slash = reference.indexOf('/');
  if (slash <= 0 || slash === reference.length - 1) {
    throw new CodeError('CONFIG_ERROR', `model '${reference}' must be written as 'provider/model'`, { details: { model: reference } });
  }
  const provider = reference.slice(0, slash);
  const model = reference.slice(slash + 1);
  const providerConfig = config.providers.find((candidate) => candidate.name === provider);
  if (providerConfig === undefined) {
    const knownProviders = config.providers.map((candidate) => candidate.name);
    throw new CodeError('CONFIG_ERROR', `unknown provider '${provider}' in model '${reference}'; configured providers: ${knownProviders.join(', ') || '(none)'}`, {
      details: { provider, model, knownProviders },
    });
  }
  const modelConfig = providerConfig.models.find((candidate) => candidate.id === model);
  if (modelConfig !== undefined) return { provider, model, providerConfig, modelConfig };
  if (options.allowUndeclared === true) return { provider, model, providerConfig, modelConfig: { id: model } };
  const knownModels = providerConfig.models.map((candidate) => candidate.id);
  throw new CodeError('CONFIG_ERROR', `unknown model '${model}' for provider '${provider}'; declared models: ${knownModels.join(', ') || '(none)'}`, {
    details: { provider, model, knownModels },
  });
}
