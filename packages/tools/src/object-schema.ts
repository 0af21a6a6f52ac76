import { Ajv } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv';

/** A compiled output schema: how the model sees it and how its output is checked. */
export interface ObjectSchema {
  /** The schema as tool parameters: always an object at the root (other roots are wrapped in `{value}`). */
  readonly parameters: Record<string, unknown>;
  /** True when the root was wrapped: the model's `{value}` is unwrapped before validation. */
  readonly wrapped: boolean;
  /** Validates a candidate object; returns the failing paths (empty when valid). */
  validate(value: unknown): string[];
}

// Built on first use: importing the package pays for no Ajv instance.
let draft07: Ajv | undefined;
let draft2020: Ajv2020 | undefined;
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
  const ajv = dialect.includes('2020-12') ? (draft2020 ??= new Ajv2020({ allErrors: true, strict: false })) : (draft07 ??= new Ajv({ allErrors: true, strict: false }));
  if (dialect !== '' && !dialect.includes('2020-12') && !dialect.includes('draft-07')) throw new Error(`unsupported $schema ${JSON.stringify(dialect)}: use draft-07 or 2020-12`);
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
