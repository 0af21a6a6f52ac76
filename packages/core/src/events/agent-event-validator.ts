import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { agentEventJsonSchemaV1 } from './agent-event-schema.js';

let validator: ValidateFunction | undefined;

/**
 * True when `type` / `payload` form a valid v1 envelope under `events.v1.json` (for a known
 * type: its payload matches the type's schema; an unknown type only needs an object payload).
 * Compiled on first use: the schema is a constant.
 */
export function isValidAgentEventPayload(type: string, payload: Readonly<Record<string, unknown>>): boolean {
  validator ??= new Ajv2020({ strict: true, validateSchema: false }).compile(agentEventJsonSchemaV1);
  return validator({ version: 1, type, payload });
}
