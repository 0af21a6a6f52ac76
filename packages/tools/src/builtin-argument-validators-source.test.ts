import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { BUILTIN_ARGUMENT_VALIDATORS } from './builtin-argument-validators.generated.js';
import { builtinArgumentValidatorsSource, toolsWithPrecompiledValidators } from './builtin-argument-validators-source.js';

describe('builtin-argument-validators.generated.ts', () => {
  it('is a fresh standalone compile of every built-in schema (run `pnpm --filter @a3s-lab/code-tools run generate-validators` after a schema change)', () => {
    const committed = readFileSync(new URL('./builtin-argument-validators.generated.ts', import.meta.url), 'utf8');
    expect(committed).toBe(builtinArgumentValidatorsSource(createRequire(import.meta.url)));
  });

  it('holds a validator for every tool of the package, which refuses what the schema refuses', () => {
    for (const tool of toolsWithPrecompiledValidators()) {
      const validate = BUILTIN_ARGUMENT_VALIDATORS.get(JSON.stringify(tool.parameters));
      expect(validate, tool.name).toBeTypeOf('function');
      expect(validate?.({ definitely_not_a_parameter: 1 }), tool.name).toBe(false);
    }
  });
});
