import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { sessionOptionsJsonSchema } from '../session/session-options-schema.js';
import { propertiesAsDefs } from './standalone-validator-source.js';

describe('propertiesAsDefs (splitProperties)', () => {
  it('moves each top-level property schema into $defs behind a $ref, keeping existing $defs', () => {
    const schema = { type: 'object', properties: { a: { type: 'string' }, b: true }, $defs: { shared: { type: 'integer' } }, additionalProperties: false };
    expect(propertiesAsDefs(schema)).toEqual({
      type: 'object',
      additionalProperties: false,
      properties: { a: { $ref: '#/$defs/a3s_property_a' }, b: { $ref: '#/$defs/a3s_property_b' } },
      $defs: { shared: { type: 'integer' }, a3s_property_a: { type: 'string' }, a3s_property_b: true },
    });
    expect(propertiesAsDefs({ type: 'string' })).toEqual({ type: 'string' });
    expect(() => propertiesAsDefs({ properties: { 'a/b': {} } })).toThrow(/cannot be moved/);
  });

  it('validates the session options exactly as the inlined schema does: same verdicts, same first error', () => {
    const options = { strict: true, verbose: true, validateSchema: false } as const;
    const inlined = new Ajv2020(options).compile(sessionOptionsJsonSchema);
    const split = new Ajv2020({ ...options, inlineRefs: false }).compile(propertiesAsDefs(sessionOptionsJsonSchema));
    const values: unknown[] = [
      {},
      { permissionPolicy: { defaultDecision: 'allow' } },
      { permissionPolicy: { defaultDecision: 'maybe' } },
      { maxToolRounds: 0 },
      { maxToolRounds: 'ten' },
      { toolTimeoutMs: 1000, autoCompact: true },
      { notAnOption: 1 },
      { planningMode: 'sometimes' },
      { hooks: [{ event: 'pre_tool_use' }] },
      { mcpServers: [{}] },
      [],
      'options',
    ];
    for (const value of values) {
      const verdict = inlined(value);
      expect(split(value), JSON.stringify(value)).toBe(verdict);
      if (verdict) continue;
      const [expected, actual] = [inlined.errors?.[0], split.errors?.[0]];
      expect({ path: actual?.instancePath, keyword: actual?.keyword, message: actual?.message, params: actual?.params }).toEqual({
        path: expected?.instancePath,
        keyword: expected?.keyword,
        message: expected?.message,
        params: expected?.params,
      });
      // Below the root the error's schema is the same object; the root itself is the rewritten one.
      if (expected?.instancePath !== '') expect(actual?.parentSchema).toBe(expected?.parentSchema);
    }
  });
});
