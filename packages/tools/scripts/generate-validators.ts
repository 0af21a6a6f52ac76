// Writes src/builtin-argument-validators.generated.ts: the built-in tools' argument schemas
// compiled at development time (see src/builtin-argument-validators-source.ts). Run after changing
// a tool's schema: `pnpm --filter @a3s-lab/code-tools run generate-validators` (a test fails while
// the file is stale).
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { builtinArgumentValidatorsSource } from '../src/builtin-argument-validators-source.js';

const target = new URL('../src/builtin-argument-validators.generated.ts', import.meta.url);
writeFileSync(target, builtinArgumentValidatorsSource(createRequire(import.meta.url)));
console.log(`wrote ${target.pathname}`);
