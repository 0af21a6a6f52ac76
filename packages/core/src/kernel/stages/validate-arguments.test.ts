import { beforeAll, describe, expect, it } from 'vitest';
import { recordingTool } from '../../../test/kernel-kit.js';
import type { JsonSchema } from '../../tools/json-schema.js';
import type { ValidateFunction } from 'ajv';
import { argumentValidatorReady, registerPrecompiledArgumentValidators, validateArguments } from './validate-arguments.js';

const DRAFT_2020 = 'https://json-schema.org/draft/2020-12/schema';
const DRAFT_07 = 'http://json-schema.org/draft-07/schema#';

describe('validateArguments schema dialects', () => {
  // The kernel awaits this before stage 2; Ajv is loaded on the first call that needs it.
  beforeAll(async () => {
    await argumentValidatorReady(recordingTool('warm-up'));
  });

  it('validates a JSON Schema 2020-12 tool schema (prefixItems, $defs) instead of refusing it', () => {
    const tool = recordingTool('pair', undefined, {
      parameters: {
        $schema: DRAFT_2020,
        type: 'object',
        properties: { pair: { type: 'array', prefixItems: [{ type: 'string' }, { $ref: '#/$defs/count' }], items: false } },
        required: ['pair'],
        $defs: { count: { type: 'integer', minimum: 0 } },
        // `items: false` and tuple `items` arrays are valid JSON Schema the structural type does not spell out.
      } as unknown as JsonSchema,
    });
    expect(validateArguments(tool, { pair: ['a', 1] })).toBeUndefined();
    const wrongType = validateArguments(tool, { pair: ['a', 'b'] });
    expect(wrongType?.output.errorKind).toMatchObject({ type: 'invalid_argument' });
    expect(wrongType?.output.output).toContain('/pair/1');
    // `items: false` after prefixItems forbids a third element: a 2020-12-only meaning.
    expect(validateArguments(tool, { pair: ['a', 1, 2] })?.output.errorKind).toMatchObject({ type: 'invalid_argument' });
  });

  it('keeps draft-07 meaning for draft-07 and dialect-less schemas (tuple `items`)', () => {
    for (const $schema of [DRAFT_07, undefined]) {
      const tool = recordingTool(`tuple`, undefined, {
        parameters: {
          ...($schema === undefined ? {} : { $schema }),
          type: 'object',
          properties: { pair: { type: 'array', items: [{ type: 'string' }, { type: 'integer' }], additionalItems: false } },
          required: ['pair'],
        } as unknown as JsonSchema,
      });
      expect(validateArguments(tool, { pair: ['a', 1] })).toBeUndefined();
      expect(validateArguments(tool, { pair: ['a', 'b'] })?.output.errorKind).toMatchObject({ type: 'invalid_argument' });
      expect(validateArguments(tool, { pair: ['a', 1, 3] })?.output.errorKind).toMatchObject({ type: 'invalid_argument' });
    }
  });

  it('reports an unknown dialect as an invalid parameter schema, not a crash', () => {
    const tool = recordingTool('odd', undefined, { parameters: { $schema: 'https://example.invalid/dialect', type: 'object' } });
    const stop = validateArguments(tool, {});
    expect(stop?.output.errorKind).toMatchObject({ type: 'unsupported' });
    expect(stop?.output.output).toContain('invalid parameter schema');
  });
});

describe('registerPrecompiledArgumentValidators with a loader', () => {
  const schemaOf = (marker: string): JsonSchema => ({ type: 'object', properties: { [marker]: { type: 'string' } }, required: [marker] });
  /** A stand-in for a generated validator: accepts objects carrying `marker`, counts its calls. */
  function precompiledValidator(marker: string): { validate: ValidateFunction; calls: () => number } {
    let calls = 0;
    const validate = Object.assign(
      (data: unknown): boolean => {
        calls += 1;
        const ok = typeof data === 'object' && data !== null && marker in data;
        validate.errors = ok ? null : [{ instancePath: '', schemaPath: '#/required', keyword: 'required', params: { missingProperty: marker }, message: `must have required property '${marker}'` }];
        return ok;
      },
      { errors: null as ValidateFunction['errors'] },
    ) as ValidateFunction;
    return { validate, calls: () => calls };
  }

  it('calls the loader on the first validation only, then validates with what it loaded', async () => {
    const { validate, calls } = precompiledValidator('lazy_marker');
    let loads = 0;
    registerPrecompiledArgumentValidators(async () => {
      loads += 1;
      return new Map([[JSON.stringify(schemaOf('lazy_marker')), validate]]);
    });
    expect(loads).toBe(0);
    const tool = recordingTool('lazy', undefined, { parameters: schemaOf('lazy_marker') });
    await argumentValidatorReady(tool);
    expect(loads).toBe(1);
    expect(validateArguments(tool, { lazy_marker: 'x' })).toBeUndefined();
    expect(validateArguments(tool, {})?.output.output).toContain('/lazy_marker: required property is missing');
    expect(calls()).toBe(2);
    expect(argumentValidatorReady(recordingTool('lazy-again', undefined, { parameters: schemaOf('lazy_marker') }))).toBeUndefined();
    expect(loads).toBe(1);
  });

  it('retries a loader whose load failed, and compiles other schemas with Ajv', async () => {
    const { validate } = precompiledValidator('retry_marker');
    let loads = 0;
    registerPrecompiledArgumentValidators(async () => {
      loads += 1;
      if (loads === 1) throw new Error('chunk missing');
      return new Map([[JSON.stringify(schemaOf('retry_marker')), validate]]);
    });
    const tool = recordingTool('retry', undefined, { parameters: schemaOf('retry_marker') });
    await expect(argumentValidatorReady(tool)).rejects.toThrow('chunk missing');
    await argumentValidatorReady(tool);
    expect(loads).toBe(2);
    expect(validateArguments(tool, {})?.output.output).toContain('/retry_marker');
    const other = recordingTool('other', undefined, { parameters: schemaOf('not_precompiled') });
    await argumentValidatorReady(other);
    expect(validateArguments(other, { not_precompiled: 1 })?.output.output).toContain('/not_precompiled: must be string');
  });
});
