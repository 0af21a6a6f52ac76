import { readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { CodeError } from '@a3s-lab/code-core';
import type { AclDocument, AclWarning } from './acl-document.js';
import { aclSyntaxError } from './acl-syntax-error.js';
import { aclToConfigObject } from './acl-to-config-object.js';
import type { AgentConfig, McpServerEntryConfig, ModelConfig, ProviderConfig, ProviderKind } from './agent-config.js';
import { AGENT_CONFIG_KEYS } from './agent-config-schema.js';
import { parseAcl } from './parse-acl.js';
import { resolveModel } from './resolve-model.js';
import { validateAgentConfigObject } from './validate-agent-config.js';

/** Options of {@link loadAgentConfig}. */
export interface LoadAgentConfigOptions {
  /** Variables visible to `env("NAME")`. Default: `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /**
   * Directory that a relative config path, and the relative paths inside inline text, resolve
   * against. Default: `process.cwd()`. Paths inside a config FILE resolve against the file's
   * own directory.
   */
  readonly cwd?: string;
  /** Receives non-fatal findings (`missing_env`, `unknown_key`). Default: they are dropped. */
  readonly onWarning?: (warning: AclWarning) => void;
}

/** Options of {@link toAgentConfig}. */
export interface ToAgentConfigOptions {
  /** Directory relative paths in the config resolve against. */
  readonly baseDir: string;
  /** Absolute path of the config file, recorded as `configFile`. */
  readonly configFile?: string;
  /** Receives `unknown_key` warnings. */
  readonly onWarning?: (warning: AclWarning) => void;
}

const DEFAULT_SESSIONS_DIR = '.a3s/sessions';

/**
 * True when `pathOrText` is inline ACL text rather than a path: it contains a newline, `=` or
 * `{`, or is empty. Everything else is treated as a path.
 */
export function isInlineAcl(pathOrText: string): boolean {
  return pathOrText === '' || /[\n={]/.test(pathOrText);
}

/**
 * Loads an `agent.acl` from a path or from inline ACL text and returns the validated, typed
 * config: keys camelCased (`api_key` and `apiKey` are the same key), `null` values treated as
 * unset, defaults applied (`storageBackend` `memory`, `sessionsDir` `.a3s/sessions`, empty dir
 * lists), directories made absolute, every provider given a {@link ProviderKind}, and
 * `defaultModel` checked to name a declared provider and model.
 *
 * @throws CodeError CONFIG_ERROR for a missing or unreadable file (naming it), a syntax error
 *   (naming line and column), or an invalid config (listing each issue with its position).
 */
export function loadAgentConfig(pathOrText: string, options: LoadAgentConfigOptions = {}): AgentConfig {
  const loaded = loadAgentDocument(pathOrText, options);
  return toAgentConfig(loaded.document, {
    baseDir: loaded.baseDir,
    ...(loaded.configFile === undefined ? {} : { configFile: loaded.configFile }),
    ...(options.onWarning === undefined ? {} : { onWarning: options.onWarning }),
  });
}

/** A parsed ACL document with where its relative paths resolve. */
export interface LoadedAclDocument {
  readonly document: AclDocument;
  readonly baseDir: string;
  readonly configFile?: string;
}

/**
 * Reads (when given a path) and parses an ACL document without building the config: what
 * {@link loadAgentConfig} does first. Keep it to overlay another document later
 * ({@link mergeAclDocuments}).
 */
export function loadAgentDocument(pathOrText: string, options: LoadAgentConfigOptions = {}): LoadedAclDocument {
  const cwd = options.cwd ?? process.cwd();
  let text = pathOrText;
  let file: string | undefined;
  if (!isInlineAcl(pathOrText)) {
    file = isAbsolute(pathOrText) ? pathOrText : resolve(cwd, pathOrText);
    text = readConfigFile(file);
  }
  const document = parseAcl(text, { ...(file === undefined ? {} : { file }), ...(options.env === undefined ? {} : { env: options.env }) });
  for (const warning of document.warnings) options.onWarning?.(warning);
  return { document, baseDir: file === undefined ? cwd : dirname(file), ...(file === undefined ? {} : { configFile: file }) };
}

function readConfigFile(file: string): string {
  try {
    if (statSync(file).isDirectory()) throw new CodeError('CONFIG_ERROR', `config path is a directory, not an ACL file: ${file}`, { details: { file } });
    return readFileSync(file, 'utf8');
  } catch (error) {
    if (CodeError.isInstance(error)) throw error;
    const code = (error as { code?: unknown }).code;
    const reason = code === 'ENOENT' || code === 'ENOTDIR' ? 'config file not found' : 'cannot read config file';
    throw new CodeError('CONFIG_ERROR', `${reason}: ${file}`, { cause: error, details: { file, ...(typeof code === 'string' ? { hostCode: code } : {}) } });
  }
}

/** Removes `null` object entries at every depth: in ACL `null` (or an unset env()) means "unset". */
function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).filter(([, item]) => item !== null).map(([key, item]) => [key, withoutNulls(item)]));
}

function providerKind(provider: Record<string, unknown>): ProviderKind | undefined {
  const kind = provider['kind'];
  if (kind === 'anthropic' || kind === 'openai') return kind;
  if (provider['name'] === 'anthropic' || provider['name'] === 'openai') return provider['name'];
  return typeof provider['baseUrl'] === 'string' ? 'openai' : undefined;
}

/**
 * Builds the typed {@link AgentConfig} from a parsed document (what {@link loadAgentConfig} does
 * after reading and parsing). Useful for callers that parse ACL text themselves.
 */
export function toAgentConfig(document: AclDocument, options: ToAgentConfigOptions): AgentConfig {
  const file = document.file;
  const { value, positions } = aclToConfigObject(document.body, file);
  const raw = withoutNulls(value) as Record<string, unknown>;
  if ('planning' in raw) {
    const planning = raw['planning'];
    if (typeof planning !== 'boolean') throw aclSyntaxError('planning must be true or false (or use planning_mode = "auto" | "enabled" | "disabled")', positions.get('/planning') ?? { line: 1, column: 1 }, file);
    // The legacy boolean only applies when the explicit tri-state is absent.
    if (!('planningMode' in raw)) raw['planningMode'] = planning ? 'enabled' : 'disabled';
    delete raw['planning'];
  }
  const known: Record<string, unknown> = {};
  const extensions: Record<string, unknown> = {};
  const unknownKeys: AclWarning[] = [];
  for (const [key, item] of Object.entries(raw)) {
    if (AGENT_CONFIG_KEYS.has(key)) {
      known[key] = item;
      continue;
    }
    Object.defineProperty(extensions, key, { value: item, enumerable: true, writable: true, configurable: true });
    const position = positions.get(`/${key}`) ?? { line: 1, column: 1 };
    unknownKeys.push({ kind: 'unknown_key', name: key, message: `unknown config key '${key}' (kept in extensions)`, line: position.line, column: position.column, ...(file === undefined ? {} : { file }) });
  }
  // Attributes and blocks are converted in two passes; report in source order.
  unknownKeys.sort((a, b) => a.line - b.line || a.column - b.column);
  for (const warning of unknownKeys) options.onWarning?.(warning);
  validateAgentConfigObject(known, positions, file);

  const providers = (known['providers'] as Record<string, unknown>[]).map((provider, index): ProviderConfig => {
    const at = positions.get(`/providers/${index}`) ?? { line: 1, column: 1 };
    const name = provider['name'] as string;
    const kind = providerKind(provider);
    if (kind === undefined) {
      throw aclSyntaxError(`provider '${name}' has no known kind: name it "anthropic" or "openai", set kind = "anthropic" | "openai", or set base_url for an OpenAI-compatible server`, at, file);
    }
    const models = (provider['models'] ?? []) as ModelConfig[];
    const ids = new Set<string>();
    for (const model of models) {
      if (ids.has(model.id)) throw aclSyntaxError(`provider '${name}' declares model '${model.id}' twice`, at, file);
      ids.add(model.id);
    }
    return { ...provider, name, kind, models };
  });
  const names = new Set<string>();
  providers.forEach((provider, index) => {
    if (names.has(provider.name)) throw aclSyntaxError(`provider '${provider.name}' is declared twice`, positions.get(`/providers/${index}`) ?? { line: 1, column: 1 }, file);
    names.add(provider.name);
  });

  const defaultModel = known['defaultModel'] as string;
  try {
    resolveModel({ providers }, defaultModel);
  } catch (error) {
    const at = positions.get('/defaultModel');
    if (!CodeError.isInstance(error) || at === undefined) throw error;
    throw new CodeError('CONFIG_ERROR', `default_model: ${error.message}`, { cause: error, details: { ...error.details, line: at.line, column: at.column, ...(file === undefined ? {} : { file }) } });
  }

  if (known['storageBackend'] === 's3' && typeof (known['s3'] as { bucket?: unknown } | undefined)?.bucket !== 'string') {
    const at = positions.get('/storageBackend') ?? { line: 1, column: 1 };
    throw aclSyntaxError('storage_backend = "s3" needs an s3 { region = "..."  bucket = "..." } block naming the bucket of the sessions', at, file);
  }

  if (known['storageBackend'] === 'postgres' && typeof (known['postgres'] as { url?: unknown } | undefined)?.url !== 'string') {
    const at = positions.get('/storageBackend') ?? { line: 1, column: 1 };
    throw aclSyntaxError('storage_backend = "postgres" needs a postgres { url = env("DATABASE_URL") } block naming the server of the sessions', at, file);
  }

  const absolute = (path: string): string => resolve(options.baseDir, path);
  return {
    ...known,
    defaultModel,
    providers,
    storageBackend: (known['storageBackend'] as AgentConfig['storageBackend'] | undefined) ?? 'memory',
    sessionsDir: absolute((known['sessionsDir'] as string | undefined) ?? DEFAULT_SESSIONS_DIR),
    agentDirs: ((known['agentDirs'] as string[] | undefined) ?? []).map(absolute),
    skillDirs: ((known['skillDirs'] as string[] | undefined) ?? []).map(absolute),
    mcpServers: ((known['mcpServers'] as McpServerEntryConfig[] | undefined) ?? []).map((server) =>
      server.transport.cwd === undefined ? server : { ...server, transport: { ...server.transport, cwd: absolute(server.transport.cwd) } },
    ),
    ...(options.configFile === undefined ? {} : { configFile: options.configFile }),
    extensions,
  };
}
