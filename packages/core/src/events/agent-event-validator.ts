import { agentEventValidator } from './agent-event-validator.generated.js';

/**
 * True when `type` / `payload` form a valid v1 envelope under `events.v1.json` (for a known
 * type: its payload matches the type's schema; an unknown type only needs an object payload).
 * Precompiled at development time (scripts/generate-validators.ts): no Ajv compile at run time.
 */
export function isValidAgentEventPayload(type: string, payload: Readonly<Record<string, unknown>>): boolean {
  return agentEventValidator({ version: 1, type, payload });
}
