import { standaloneValidatorSource } from '@a3s-lab/code-core/util';

import { agentConfigJsonSchema } from './agent-config-schema.js';

/** Options of the agent config validator (shared by the generator and its staleness test). */
export const VALIDATOR_OPTIONS = { allErrors: true, strict: true, validateSchema: false } as const;

/**
 * TypeScript source of `agent-config-validator.generated.ts`: ajv's standalone ESM code for
 * {@link agentConfigJsonSchema}. Used by `scripts/generate-validator.mjs` and by the test that
 * keeps the committed file current.
 *
 * @param require a `require` that resolves `ajv` (development time only).
 */
export function generatedValidatorSource(require: (id: string) => unknown): string {
  return standaloneValidatorSource(require, {
    schema: agentConfigJsonSchema,
    options: VALIDATOR_OPTIONS,
    exportName: 'agentConfigValidator',
    splitProperties: true,
    description: 'The compiled agent config validator (ajv ValidateFunction: `errors` after a failed call).',
    generatedBy: 'scripts/generate-validator.mjs from agent-config-schema.ts',
    ucs2lengthFrom: '@a3s-lab/code-core/util',
  });
}
