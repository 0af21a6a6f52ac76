import { realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { CodeError } from '@a3s-lab/code';

/** Where a run's configuration comes from. */
export type ConfigSource =
  /**
   * An `.acl` file: `origin` says whose it is. `explicit` (`--config`) and `user`
   * (`~/.a3s/config.acl`) are the user's own; `project` (`<workspace>/.a3s/config.acl`) came with
   * the workspace and is used only after the user trusted it (see project-trust.ts).
   */
  | { readonly kind: 'file'; readonly path: string; readonly origin: ConfigOrigin }
  /** ACL text built from API-key environment variables; `description` says which. */
  | { readonly kind: 'env'; readonly acl: string; readonly description: string; readonly model: string };

/** Whose config file a run found: `--config`, the user's home config, or the workspace's own. */
export type ConfigOrigin = 'explicit' | 'user' | 'project';

/** Inputs of {@link discoverConfig}. */
export interface DiscoverConfigOptions {
  /** `--config` (relative to `cwd`). */
  readonly explicit?: string;
  /** The workspace directory (absolute). */
  readonly workspace: string;
  /** Base of a relative `--config`. */
  readonly cwd: string;
  /** Environment: `HOME`, API keys. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** `--model`, used for the model of an environment-built config. */
  readonly model?: string;
}

/** Model used when only `ANTHROPIC_API_KEY` is set and no `--model` is given. */
export const DEFAULT_ANTHROPIC_MODEL = 'claude-sonnet-4-20250514';
/** Model used when only `OPENAI_API_KEY` + `OPENAI_BASE_URL` are set (override: `OPENAI_MODEL`). */
export const DEFAULT_OPENAI_MODEL = 'gpt-4o';

/** The config file of a workspace, relative to it. */
export const WORKSPACE_CONFIG = join('.a3s', 'config.acl');

const isFile = (path: string): boolean => {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
};

// The workspace may be HOME itself: its config is then the user's own.
const sameFile = (a: string, b: string): boolean => {
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return false;
  }
};

/**
 * The CONFIG_ERROR of a command that found no configuration: names every file looked at and the
 * environment variables that would do (`details.looked`); `hint` ends the message (e.g. try the demo).
 */
export function noConfigurationError(options: Pick<DiscoverConfigOptions, 'workspace' | 'env'>, hint?: string): CodeError {
  const looked = configCandidates(options);
  return new CodeError('CONFIG_ERROR', `no configuration found (looked for --config, ${looked.join(', ')}) and no ANTHROPIC_API_KEY, or OPENAI_API_KEY + OPENAI_BASE_URL, in the environment${hint === undefined ? '' : `; ${hint}`}`, {
    details: { looked },
  });
}

/** The files looked at, in order (for messages). */
export function configCandidates(options: Pick<DiscoverConfigOptions, 'workspace' | 'env'>): string[] {
  const home = options.env['HOME'] ?? homedir();
  return [join(options.workspace, WORKSPACE_CONFIG), join(home, '.a3s', 'config.acl')];
}

/**
 * Finds the configuration of a run: `--config`, then `<workspace>/.a3s/config.acl` (origin
 * `project`: the caller must hold a trust decision before loading it), then
 * `$HOME/.a3s/config.acl`, then an inline config built from `ANTHROPIC_API_KEY` (or
 * `OPENAI_API_KEY` + `OPENAI_BASE_URL`). `null` when there is none of these.
 *
 * @throws CodeError CONFIG_ERROR when `--config` names a file that does not exist.
 */
export function discoverConfig(options: DiscoverConfigOptions): ConfigSource | null {
  if (options.explicit !== undefined) {
    const path = resolve(options.cwd, options.explicit);
    if (!isFile(path)) throw new CodeError('CONFIG_ERROR', `config file not found: ${path}`, { details: { file: path } });
    return { kind: 'file', path, origin: 'explicit' };
  }
  const [project, user] = configCandidates(options) as [string, string];
  if (isFile(project)) return { kind: 'file', path: project, origin: sameFile(project, user) ? 'user' : 'project' };
  if (isFile(user)) return { kind: 'file', path: user, origin: 'user' };
  return configFromEnvironment(options.env, options.model);
}

/** True when the environment holds a usable model API key. */
export function hasModelKey(env: Readonly<Record<string, string | undefined>>): boolean {
  return nonEmpty(env['ANTHROPIC_API_KEY']) || (nonEmpty(env['OPENAI_API_KEY']) && nonEmpty(env['OPENAI_BASE_URL']));
}

const nonEmpty = (value: string | undefined): value is string => value !== undefined && value.length > 0;

/**
 * An inline ACL from API-key variables, or `null`. Anthropic wins when both are set, unless
 * `model` names the `openai` provider. Keys stay in the environment (`env("...")`), never in
 * the generated text.
 */
export function configFromEnvironment(env: Readonly<Record<string, string | undefined>>, model?: string): ConfigSource | null {
  const anthropic = nonEmpty(env['ANTHROPIC_API_KEY']);
  const openai = nonEmpty(env['OPENAI_API_KEY']) && nonEmpty(env['OPENAI_BASE_URL']);
  const wantsOpenai = model?.startsWith('openai/') === true;
  if (anthropic && !wantsOpenai) {
    const id = modelId(model, 'anthropic') ?? DEFAULT_ANTHROPIC_MODEL;
    const baseUrl = nonEmpty(env['ANTHROPIC_BASE_URL']) ? '\n  base_url = env("ANTHROPIC_BASE_URL")' : '';
    return {
      kind: 'env',
      model: `anthropic/${id}`,
      description: 'ANTHROPIC_API_KEY',
      acl: `default_model = "anthropic/${id}"\nproviders "anthropic" {\n  api_key = env("ANTHROPIC_API_KEY")${baseUrl}\n  models "${id}" { tool_call = true }\n}\n`,
    };
  }
  if (openai) {
    const id = modelId(model, 'openai') ?? (nonEmpty(env['OPENAI_MODEL']) ? checkedId(env['OPENAI_MODEL']) : DEFAULT_OPENAI_MODEL);
    return {
      kind: 'env',
      model: `openai/${id}`,
      description: 'OPENAI_API_KEY + OPENAI_BASE_URL',
      acl: `default_model = "openai/${id}"\nproviders "openai" {\n  api_key = env("OPENAI_API_KEY")\n  base_url = env("OPENAI_BASE_URL")\n  models "${id}" { tool_call = true }\n}\n`,
    };
  }
  return null;
}

function modelId(model: string | undefined, provider: string): string | undefined {
  if (model === undefined || !model.startsWith(`${provider}/`)) return undefined;
  return checkedId(model.slice(provider.length + 1));
}

// The id is spliced into ACL text: refuse anything that could close the string.
function checkedId(id: string): string {
  if (!/^[A-Za-z0-9._:@/-]+$/.test(id)) throw new CodeError('CONFIG_ERROR', `model id '${id}' has characters a model id cannot have`, { details: { model: id } });
  return id;
}
