import type { ErrorObject } from 'ajv/dist/2020.js';
import { CodeError, isSessionStore, sessionOptionsJsonSchema } from '@a3s-lab/code-core';
import type { JsonSchema, SessionOptions } from '@a3s-lab/code-core';
import { checkTelemetryProviders, NON_JSON_SESSION_OPTIONS, sessionOptionsValidator, validatePermissionPolicy } from '@a3s-lab/code-core/kernel';

/** Options with defaults applied. */
export interface ResolvedSessionOptions extends SessionOptions {
  readonly planningMode: 'auto' | 'enabled' | 'disabled';
  readonly toolTimeoutMs: number;
  readonly circuitBreakerThreshold: number;
  readonly duplicateToolCallThreshold: number;
  readonly maxToolRounds: number;
  readonly autoCompact: boolean;
  readonly autoCompactThreshold: number;
  readonly maxContextTokens: number;
  readonly maxParallelTasks: number;
  readonly autoParallel: boolean;
  readonly maxParseRetries: number;
  readonly maxContinuationTurns: number;
}

/** Defaults of REFERENCE.md. */
export const SESSION_OPTION_DEFAULTS = Object.freeze({
  planningMode: 'auto' as const,
  toolTimeoutMs: 600_000,
  circuitBreakerThreshold: 3,
  duplicateToolCallThreshold: 3,
  maxToolRounds: 50,
  autoCompact: false,
  autoCompactThreshold: 0.8,
  maxContextTokens: 200_000,
  maxParallelTasks: 8,
  autoParallel: true,
  maxParseRetries: 2,
  maxContinuationTurns: 3,
});

const fail = (field: string, expected: string, value: unknown): never => {
  throw new CodeError('SESSION_CONFIGURATION_ERROR', `invalid session option '${field}': expected ${expected}, got ${describe(value)}`, {
    details: { field, expected },
  });
};
const describe = (value: unknown): string => {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `"${value.length > 40 ? `${value.slice(0, 40)}…` : value}"`;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return typeof value;
};

/** Names of every accepted session option. */
export const SESSION_OPTION_NAMES: readonly string[] = Object.freeze([...Object.keys(sessionOptionsJsonSchema.properties), ...NON_JSON_SESSION_OPTIONS]);

/** `/permissionPolicy/deny/0` -> `permissionPolicy.deny[0]`. */
function fieldOf(pointer: string): string {
  return pointer
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : path === '' ? part : `${path}.${part}`), '');
}

/** What a value of `schema` is, in words: `an integer in 1..1000`, `one of 'a', 'b'`. */
function expectedOf(schema: JsonSchema | undefined): string {
  if (schema === undefined) return 'a valid value';
  if (typeof schema.description === 'string') return schema.description;
  if (schema.enum !== undefined) return `one of ${schema.enum.map((x) => `'${String(x)}'`).join(', ')}`;
  const bound = (key: string): number | undefined => (typeof schema[key] === 'number' ? schema[key] : undefined);
  switch (schema.type) {
    case 'boolean':
      return 'a boolean';
    case 'string':
      return schema['minLength'] === 1 ? 'a non-empty string' : 'a string';
    case 'integer':
      return `an integer in ${bound('minimum')}..${bound('maximum')}`;
    case 'number': {
      const low = bound('exclusiveMinimum') === undefined ? `[${bound('minimum')}` : `(${bound('exclusiveMinimum')}`;
      const high = bound('exclusiveMaximum') === undefined ? `${bound('maximum')}]` : `${bound('exclusiveMaximum')})`;
      return `a number in ${low}, ${high}`;
    }
    case 'array':
      return schema.items?.type === 'string' ? 'an array of strings' : 'an array';
    default:
      return 'an object';
  }
}

/** The first schema violation as the typed error that names its field. */
function rejectFirst(error: ErrorObject, input: Readonly<Record<string, unknown>>): never {
  const field = fieldOf(error.instancePath);
  const parent = error.parentSchema as JsonSchema | undefined;
  if (error.keyword === 'additionalProperties') {
    const key = String((error.params as Record<string, unknown>)['additionalProperty']);
    if (field === '') throw new CodeError('SESSION_CONFIGURATION_ERROR', `unknown session option '${key}'`, { details: { field: key, known: SESSION_OPTION_NAMES } });
    const known = Object.keys(parent?.properties ?? {}).join(', ');
    throw new CodeError('SESSION_CONFIGURATION_ERROR', `unknown session option '${field}.${key}' (known: ${known})`, { details: { field: `${field}.${key}` } });
  }
  if (error.keyword === 'required') {
    const missing = String((error.params as Record<string, unknown>)['missingProperty']);
    return fail(`${field}.${missing}`, expectedOf(parent?.properties?.[missing]), undefined);
  }
  return fail(field, expectedOf(parent), error.keyword === 'required' ? undefined : valueAt(input, error.instancePath));
}

function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function valueAt(root: unknown, pointer: string): unknown {
  let value = root;
  for (const part of pointer.split('/').slice(1)) value = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[part] : undefined;
  return value;
}

/** Checks the schema cannot express: objects with methods, rule syntax, unique worker names. */
function checkBeyondSchema(input: Readonly<Record<string, unknown>>): void {
  const backend = input['workspaceBackend'] as Record<string, unknown> | null | undefined;
  if (backend !== undefined && (typeof backend !== 'object' || backend === null || typeof backend['readFile'] !== 'function' || typeof backend['resolvePath'] !== 'function' || typeof backend['capabilities'] !== 'object')) {
    fail('workspaceBackend', 'a WorkspaceBackend (capabilities, resolvePath, readFile...)', backend);
  }
  if (input['workspaceOverlay'] !== undefined && typeof input['workspaceOverlay'] !== 'function') fail('workspaceOverlay', 'a function (backend) => WorkspaceBackend', input['workspaceOverlay']);
  checkTelemetryProviders(input['telemetry'] as Readonly<Record<string, unknown>> | undefined);
  if (input['sessionStore'] !== undefined && !isSessionStore(input['sessionStore'])) fail('sessionStore', 'a SessionStore (name, capabilities, save, load, delete, list)', input['sessionStore']);
  const typed = input as SessionOptions;
  if (typed.permissionPolicy !== undefined) {
    // Rule syntax (`bash(git *)`) is checked here too, so a bad rule fails at session creation
    // naming `permissionPolicy.deny[0]`, not later inside the kernel.
    const { enabled: _enabled, ...rules } = typed.permissionPolicy;
    validatePermissionPolicy(rules);
  }
  const names = new Set<string>();
  typed.workerAgents?.forEach((spec, i) => {
    if (names.has(spec.name)) fail(`workerAgents[${i}].name`, 'a unique worker name', spec.name);
    names.add(spec.name);
    if (spec.permissions === undefined) return;
    try {
      validatePermissionPolicy(spec.permissions);
    } catch (error) {
      fail(`workerAgents[${i}].permissions`, `a permission policy (${error instanceof Error ? error.message : String(error)})`, spec.permissions);
    }
  });
}

/**
 * Validates `options` and applies defaults. Throws SESSION_CONFIGURATION_ERROR naming the
 * first bad field (unknown fields included, so typos are caught).
 */
export function resolveSessionOptions(options: unknown = {}): ResolvedSessionOptions {
  if (options === undefined || options === null) options = {};
  if (typeof options !== 'object' || Array.isArray(options)) fail('options', 'an object', options);
  // A field set to `undefined` means "not set".
  const input = Object.fromEntries(Object.entries(options as Record<string, unknown>).filter(([, value]) => value !== undefined));
  const { workspaceBackend: _backend, workspaceOverlay: _overlay, sessionStore: _store, ...json } = input;
  // The provider objects of `telemetry` are not JSON: checked in checkBeyondSchema.
  if (isPlainRecord(json['telemetry'])) {
    const { tracerProvider: _t, meterProvider: _m, ...telemetry } = json['telemetry'];
    json['telemetry'] = telemetry;
  }
  // Precompiled at development time (scripts/generate-validators.ts): no Ajv compile per process.
  if (!sessionOptionsValidator(json)) rejectFirst(sessionOptionsValidator.errors![0]!, json);
  checkBeyondSchema(input);
  const typed = input as SessionOptions;
  const planningMode = typed.planningMode ?? (typed.planning === undefined ? SESSION_OPTION_DEFAULTS.planningMode : typed.planning ? 'enabled' : 'disabled');
  return {
    ...typed,
    planningMode,
    toolTimeoutMs: typed.toolTimeoutMs ?? SESSION_OPTION_DEFAULTS.toolTimeoutMs,
    circuitBreakerThreshold: typed.circuitBreakerThreshold ?? SESSION_OPTION_DEFAULTS.circuitBreakerThreshold,
    duplicateToolCallThreshold: typed.duplicateToolCallThreshold ?? SESSION_OPTION_DEFAULTS.duplicateToolCallThreshold,
    maxToolRounds: typed.maxToolRounds ?? SESSION_OPTION_DEFAULTS.maxToolRounds,
    autoCompact: typed.autoCompact ?? SESSION_OPTION_DEFAULTS.autoCompact,
    autoCompactThreshold: typed.autoCompactThreshold ?? SESSION_OPTION_DEFAULTS.autoCompactThreshold,
    maxContextTokens: typed.maxContextTokens ?? SESSION_OPTION_DEFAULTS.maxContextTokens,
    maxParallelTasks: typed.maxParallelTasks ?? SESSION_OPTION_DEFAULTS.maxParallelTasks,
    autoParallel: typed.autoParallel ?? SESSION_OPTION_DEFAULTS.autoParallel,
    maxParseRetries: typed.maxParseRetries ?? SESSION_OPTION_DEFAULTS.maxParseRetries,
    maxContinuationTurns: typed.maxContinuationTurns ?? SESSION_OPTION_DEFAULTS.maxContinuationTurns,
  };
}
