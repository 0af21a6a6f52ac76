import { createRequire } from 'node:module';
import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import { requireOnce, safeRegExp } from '@a3s-lab/code-core/util';

/** A compiled output schema: how the model sees it and how its output is checked. */
export interface ObjectSchema {
  /** The schema as tool parameters: always an object at the root (other roots are wrapped in `{value}`). */
  readonly parameters: Record<string, unknown>;
  /** True when the root was wrapped: the model's `{value}` is unwrapped before validation. */
  readonly wrapped: boolean;
  /** Validates a candidate object; returns the failing paths (empty when valid). */
  validate(value: unknown): string[];
}

// Ajv is loaded and built on first use: importing the package loads none of its ~40 files.
const requireHere = createRequire(import.meta.url);
const draft07Module = requireOnce<{ readonly Ajv: typeof Ajv }>(requireHere, 'ajv');
const draft2020Module = requireOnce<{ readonly Ajv2020: typeof Ajv2020 }>(requireHere, 'ajv/dist/2020.js');
let draft07: Ajv | undefined;
let draft2020: Ajv2020 | undefined;

// The schemas are the caller's (a model's or a host's): their patterns go through `safeRegExp`,
// which refuses the ones that can backtrack without bound (compiling then fails with why).
const OPTIONS = { allErrors: true, strict: false, code: { regExp: safeRegExp } };

function draft07Ajv(): Ajv {
  draft07 ??= new (draft07Module().Ajv)(OPTIONS);
  return draft07;
}

function draft2020Ajv(): Ajv2020 {
  draft2020 ??= new (draft2020Module().Ajv2020)(OPTIONS);
  return draft2020;
}
const MAX_LISTED = 12;

function describe(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  const path = error.instancePath === '' ? '/' : error.instancePath;
  if (error.keyword === 'required') return `${path}: missing required property '${String(params['missingProperty'])}'`;
  if (error.keyword === 'additionalProperties') return `${path}: unexpected property '${String(params['additionalProperty'])}'`;
  if (error.keyword === 'enum') return `${path}: must be one of ${JSON.stringify(params['allowedValues'])}`;
  return `${path}: ${error.message ?? error.keyword}`;
}

/**
 * Compiles a user-supplied JSON Schema (draft-07 by default; 2020-12 when `$schema` says so).
 * Throws an Error whose message says why the schema is unusable: the caller turns it into an
 * `invalid_argument` result before any model call.
 */
export function compileObjectSchema(schema: unknown): ObjectSchema {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) throw new Error('schema must be a JSON Schema object');
  const record = schema as Record<string, unknown>;
  const dialect = typeof record['$schema'] === 'string' ? record['$schema'] : '';
  if (dialect !== '' && !dialect.includes('2020-12') && !dialect.includes('draft-07')) throw new Error(`unsupported $schema ${JSON.stringify(dialect)}: use draft-07 or 2020-12`);
  const ajv = dialect.includes('2020-12') ? draft2020Ajv() : draft07Ajv();
  let compiled: ValidateFunction;
  try {
    compiled = ajv.compile(record);
    ajv.removeSchema(record);
  } catch (error) {
    throw new Error(`invalid schema: ${error instanceof Error ? error.message : String(error)}`);
  }
  const { $schema: _dialect, ...rest } = record;
  const wrapped = record['type'] !== 'object';
  return {
    parameters: wrapped ? { type: 'object', properties: { value: rest }, required: ['value'], additionalProperties: false } : rest,
    wrapped,
    validate: (value) => {
      if (compiled(value)) return [];
      const lines = [...new Set((compiled.errors ?? []).map(describe))];
      return lines.length > MAX_LISTED ? [...lines.slice(0, MAX_LISTED), `... ${lines.length - MAX_LISTED} more`] : lines;
    },
  };
}
