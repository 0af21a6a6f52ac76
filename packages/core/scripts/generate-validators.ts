// Writes the precompiled validators of core (src/validation/generated-validators.ts lists them):
// constant JSON Schemas compiled once, at development time, by ajv's standalone code generator,
// so no process compiles them (opening a session no longer spends 25-70 ms on its options).
// Run after changing a listed schema: `pnpm --filter @a3s-lab/code-core run generate-validators`
// (a test fails while a file is stale).
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { GENERATED_VALIDATORS } from '../src/validation/generated-validators.js';

const require = createRequire(import.meta.url);
for (const validator of GENERATED_VALIDATORS) {
  const target = new URL(`../src/${validator.path}`, import.meta.url);
  writeFileSync(target, validator.source(require));
  console.log(`wrote ${target.pathname}`);
}
