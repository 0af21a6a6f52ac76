import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { GENERATED_VALIDATORS } from './generated-validators.js';

describe('precompiled validators', () => {
  for (const validator of GENERATED_VALIDATORS) {
    it(`${validator.path} is a fresh standalone compile of its schema (run \`pnpm --filter @a3s-lab/code-core run generate-validators\` after a schema change)`, () => {
      const committed = readFileSync(new URL(`../${validator.path}`, import.meta.url), 'utf8');
      expect(committed).toBe(validator.source(createRequire(import.meta.url)));
    });
  }
});
