import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

import { describe, expect, it } from 'vitest';

import { generatedValidatorSource } from './generated-validator-source.js';

describe('agent-config-validator.generated.ts', () => {
  it('is a fresh standalone compile of the schema (run `pnpm --filter @a3s-lab/code-config run generate-validator` after a schema change)', () => {
    const committed = readFileSync(new URL('./agent-config-validator.generated.ts', import.meta.url), 'utf8');
    expect(committed).toBe(generatedValidatorSource(createRequire(import.meta.url)));
  });
});
