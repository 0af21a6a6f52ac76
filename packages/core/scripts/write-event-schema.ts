// Regenerates schemas/events.v1.json from the typed constant, the single source of truth.
// Run: pnpm --filter @a3s-lab/code-core run schemas
import { mkdirSync, writeFileSync } from 'node:fs';
import { agentEventJsonSchemaV1 } from '../src/events/agent-event-schema.js';

const target = new URL('../schemas/events.v1.json', import.meta.url);
mkdirSync(new URL('../schemas/', import.meta.url), { recursive: true });
writeFileSync(target, `${JSON.stringify(agentEventJsonSchemaV1, null, 2)}\n`);
console.log(`wrote ${target.pathname}`);
