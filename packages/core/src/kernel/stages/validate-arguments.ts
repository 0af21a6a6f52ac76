import type { Ajv as AjvClass, ErrorObject, ValidateFunction } from 'ajv';
import type { Ajv2020 as Ajv2020Class } from 'ajv/dist/2020.js';
import type { AnyTool } from '../../tools/tool-registry.js';
import { argumentBoundsProblem } from '../argument-bounds.js';
import type { StageStop } from '../invocation-call.js';
import { safeRegExp } from '../../validation/safe-pattern.js';

// One shared instance: compiling is the expensive part and results are cached per tool below.
// (Exported for the generators of precompiled validators, which must compile with the same.)
// strict:false because tool schemas are model-facing JSON that may carry annotations ajv does
// not know; allErrors so the model sees every failing path at once.
export const ARGUMENT_VALIDATOR_OPTIONS = { allErrors: true, strict: false, validateFormats: false } as const;
// Schemas compiled at run time are not ours (the built-in tools use precompiled validators):
// their patterns go through `safeRegExp`, which refuses the ones that can backtrack without
// bound, so such a tool fails with a clear schema error instead of stalling the process.
const RUNTIME_VALIDATOR_OPTIONS = { ...ARGUMENT_VALIDATOR_OPTIONS, code: { regExp: safeRegExp } };
// Both built on first use; most sessions only ever see draft-07 (or dialect-less) schemas.
let draft07: AjvClass | undefined;
let draft2020: Ajv2020Class | undefined;

/** Ajv's two classes, loaded by {@link argumentValidatorReady}. */
interface AjvEngine {
  readonly Ajv: typeof AjvClass;
  readonly Ajv2020: typeof Ajv2020Class;
}
let engine: AjvEngine | undefined;
let engineLoading: Promise<void> | undefined;

/** `$schema` URIs of JSON Schema 2020-12 (with and without the trailing `#`, http or https). */
const DRAFT_2020_12 = /^https?:\/\/json-schema\.org\/draft\/2020-12\/schema#?$/;

/**
 * The validator instance for a schema's dialect: JSON Schema 2020-12 when its `$schema` says so
 * (MCP servers publish those), draft-07 otherwise — including schemas without `$schema`, so the
 * built-in tools keep their meaning.
 */
function ajvFor(loaded: AjvEngine, schema: object): AjvClass | Ajv2020Class {
  const dialect = (schema as { $schema?: unknown }).$schema;
  if (typeof dialect === 'string' && DRAFT_2020_12.test(dialect)) return (draft2020 ??= new loaded.Ajv2020(RUNTIME_VALIDATOR_OPTIONS));
  return (draft07 ??= new loaded.Ajv(RUNTIME_VALIDATOR_OPTIONS));
}

type Compiled = ValidateFunction | { readonly schemaError: string };
const cache = new WeakMap<AnyTool, Compiled>();

/**
 * Validators compiled at development time (the built-in tools' schemas), by the JSON text of the
 * schema they were compiled from with {@link ARGUMENT_VALIDATOR_OPTIONS}: a tool whose schema is that text uses
 * one and needs no Ajv at all.
 */
const precompiled = new Map<string, ValidateFunction>();

/** Registered validator modules not loaded yet, and the one load of them in progress. */
const pendingSources = new Set<() => Promise<ReadonlyMap<string, ValidateFunction>>>();
let sourcesLoading: Promise<void> | undefined;

/** A module of precompiled validators: the map itself, or a loader of it (a dynamic `import()`). */
export type PrecompiledValidatorSource = ReadonlyMap<string, ValidateFunction> | (() => Promise<ReadonlyMap<string, ValidateFunction>>);

/**
 * Registers validators compiled at development time by `standaloneValidatorMapSource` with the
 * options of this stage (`allErrors`, `strict: false`, `validateFormats: false`, draft-07 unless a
 * schema says 2020-12), keyed by `JSON.stringify(schema)`. A tool whose `parameters` serialise to
 * a registered key is validated by it; any other tool compiles its schema with Ajv on first use.
 * A loader is called once, by the first validation after it was registered (the module's code is
 * then neither parsed at import nor before the first model request); registering it again is a
 * no-op.
 */
export function registerPrecompiledArgumentValidators(validators: PrecompiledValidatorSource): void {
  if (typeof validators === 'function') {
    pendingSources.add(validators);
    return;
  }
  for (const [schema, validate] of validators) precompiled.set(schema, validate);
}

/** Loads every pending validator module (once; a failed load is retried by the next call). */
function loadPendingSources(): Promise<void> {
  const loaders = [...pendingSources];
  sourcesLoading ??= Promise.all(loaders.map((load) => load())).then(
    (maps) => {
      for (const map of maps) registerPrecompiledArgumentValidators(map);
      for (const load of loaders) pendingSources.delete(load);
      sourcesLoading = undefined;
    },
    (error: unknown) => {
      sourcesLoading = undefined;
      throw error;
    },
  );
  return sourcesLoading;
}

/**
 * Loads the registered precompiled validator modules now rather than at the first validation
 * (Ajv itself stays unloaded until a schema needs it). The session calls it while its first model
 * request is in flight, when the process would otherwise wait. Never rejects: a failed load is
 * retried by the first validation, which reports it.
 */
export function preloadArgumentValidators(): Promise<void> {
  if (pendingSources.size === 0) return Promise.resolve();
  return loadPendingSources().catch(() => undefined);
}

/** The registered validator of `tool`'s schema, cached for the tool; undefined when there is none. */
function precompiledFor(tool: AnyTool): ValidateFunction | undefined {
  if (precompiled.size === 0) return undefined;
  const validate = precompiled.get(JSON.stringify(tool.parameters));
  if (validate !== undefined) cache.set(tool, validate);
  return validate;
}

/** Loads Ajv once (a failed load is retried by the next call). */
function loadEngine(): Promise<void> {
  engineLoading ??= Promise.all([import('ajv'), import('ajv/dist/2020.js')]).then(
    ([draft07Module, draft2020Module]) => {
      engine = { Ajv: draft07Module.Ajv, Ajv2020: draft2020Module.Ajv2020 };
    },
    (error: unknown) => {
      engineLoading = undefined;
      throw error;
    },
  );
  return engineLoading;
}

/**
 * Resolves once `tool`'s arguments can be validated: undefined (nothing to wait for) when its
 * validator is compiled or precompiled or Ajv is loaded; else the one load of the registered
 * precompiled modules and, when none of them has the tool's schema, the one load of Ajv. Ajv (~40
 * CommonJS files) is loaded on the first call that needs it, not at import: importing the package,
 * opening a session and the first model request pay nothing for it. The kernel awaits this before
 * stage 2.
 */
export function argumentValidatorReady(tool: AnyTool): Promise<void> | undefined {
  if (cache.has(tool) || precompiledFor(tool) !== undefined) return undefined;
  if (pendingSources.size > 0) return loadPendingSources().then(() => (precompiledFor(tool) !== undefined || engine !== undefined ? undefined : loadEngine()));
  if (engine !== undefined) return undefined;
  return loadEngine();
}

/** How many failing paths a message lists. */
const MAX_LISTED_ERRORS = 8;

function compile(tool: AnyTool): Compiled {
  let compiled = cache.get(tool) ?? precompiledFor(tool);
  if (compiled === undefined) {
    if (engine === undefined) throw new Error(`internal: validating '${tool.name}' before argumentValidatorReady() resolved`);
    try {
      const ajv = ajvFor(engine, tool.parameters as object);
      const validate = ajv.compile(tool.parameters as object);
      // The validator keeps working after its schema leaves ajv's registry; removing it means
      // dynamic tools do not accumulate and two tools may reuse the same `$id`.
      ajv.removeSchema(tool.parameters as object);
      compiled = validate;
    } catch (error) {
      compiled = { schemaError: error instanceof Error ? error.message : String(error) };
    }
    cache.set(tool, compiled);
  }
  return compiled;
}

function describe(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  let path = error.instancePath === '' ? '' : error.instancePath;
  if (error.keyword === 'required' && typeof params['missingProperty'] === 'string') path += `/${params['missingProperty']}`;
  if (error.keyword === 'additionalProperties' && typeof params['additionalProperty'] === 'string') {
    return `${path}/${params['additionalProperty']}: unexpected property`;
  }
  if (error.keyword === 'required') return `${path}: required property is missing`;
  if (error.keyword === 'enum' && Array.isArray(params['allowedValues'])) return `${path || '/'}: must be one of ${JSON.stringify(params['allowedValues'])}`;
  return `${path || '/'}: ${error.message ?? error.keyword}`;
}

/**
 * Stage 2: checks the argument bounds (depth, size: see `argumentBoundsProblem`), then validates `args` against the tool's JSON Schema with a validator compiled once per
 * tool object. Runs before hooks, confirmation and any side effect. A failure ends the call
 * with `invalid_argument` listing the failing paths (JSON pointers into the arguments).
 */
export function validateArguments(tool: AnyTool, args: unknown): StageStop | undefined {
  const compiled = compile(tool);
  if (typeof compiled !== 'function') {
    const message = `Tool '${tool.name}' has an invalid parameter schema: ${compiled.schemaError}`;
    return { output: { output: message, exitCode: 1, errorKind: { type: 'unsupported', message } }, outcome: 'failed' };
  }
  // Bounded first: the schema validator (and everything after it: the duplicate-call guard,
  // hooks, events, snapshots) walks the arguments recursively.
  const bounds = argumentBoundsProblem(args);
  if (bounds !== null) {
    const message = `Invalid arguments for tool '${tool.name}': ${bounds}`;
    return { output: { output: message, exitCode: 1, errorKind: { type: 'invalid_argument', message } }, outcome: 'failed' };
  }
  if (compiled(args)) return undefined;
  const errors = compiled.errors ?? [];
  const lines = [...new Set(errors.map(describe))];
  const listed = lines.length > MAX_LISTED_ERRORS ? [...lines.slice(0, MAX_LISTED_ERRORS), `... ${lines.length - MAX_LISTED_ERRORS} more`] : lines;
  const message = `Invalid arguments for tool '${tool.name}': ${listed.join('; ') || 'arguments do not match the schema'}`;
  return { output: { output: message, exitCode: 1, errorKind: { type: 'invalid_argument', message } }, outcome: 'failed' };
}
