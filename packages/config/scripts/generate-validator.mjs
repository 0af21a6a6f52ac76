#!/usr/bin/env node
// Writes src/agent-config-validator.generated.ts: the agent config JSON schema compiled once, at
// development time, by ajv's standalone code generator (same options as a runtime compile), so
// Agent.create does not spend ~25 ms (idle machine; ~100 ms loaded) compiling it on every start.
// Run after changing src/agent-config-schema.ts: `pnpm --filter @a3s-lab/code-config run generate-validator`
// (a test fails while the file is stale). Runs on the sources through tsx.
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { generatedValidatorSource } from '../src/generated-validator-source.ts';

const target = join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'agent-config-validator.generated.ts');
writeFileSync(target, generatedValidatorSource(createRequire(import.meta.url)));
console.log(`wrote ${target}`);
