import { agentEventJsonSchemaV1 } from '../events/agent-event-schema.js';
import { sessionOptionsJsonSchema } from '../session/session-options-schema.js';
import { VERIFICATION_REPORT_JSON_SCHEMA } from '../verification/verification-report-schema.js';
import { standaloneValidatorSource } from './standalone-validator-source.js';

/** One precompiled validator module of this package: where it lives and how to write it. */
export interface GeneratedValidator {
  /** Path of the module under `src/`. */
  readonly path: string;
  /** Its TypeScript source (`require` resolves `ajv`; development time only). */
  source(require: (id: string) => unknown): string;
}

const GENERATED_BY = 'scripts/generate-validators.ts';

/**
 * The constant schemas of core compiled at development time by `scripts/generate-validators.ts`
 * (a test keeps the committed files current), so no process compiles them: the session-options
 * schema on every session open (25-70 ms), the v1 event schema on the first `parseAgentEvent`,
 * the verification report schema on the first report or snapshot carrying one.
 */
export const GENERATED_VALIDATORS: readonly GeneratedValidator[] = [
  {
    path: 'session/session-options-validator.generated.ts',
    source: (require) =>
      standaloneValidatorSource(require, {
        schema: sessionOptionsJsonSchema,
        // `verbose` keeps `parentSchema` for the error that names the field.
        options: { strict: true, verbose: true, validateSchema: false },
        exportName: 'sessionOptionsValidator',
        splitProperties: true,
        description: 'The compiled session-options validator (ajv ValidateFunction: `errors` after a failed call).',
        generatedBy: `${GENERATED_BY} from session-options-schema.ts`,
        ucs2lengthFrom: '../validation/ucs2length.js',
      }),
  },
  {
    path: 'events/agent-event-validator.generated.ts',
    source: (require) =>
      standaloneValidatorSource(require, {
        schema: agentEventJsonSchemaV1,
        options: { strict: true, validateSchema: false },
        exportName: 'agentEventValidator',
        splitProperties: true,
        description: 'The compiled v1 event envelope validator (`events.v1.json`).',
        generatedBy: `${GENERATED_BY} from agent-event-schema.ts`,
        ucs2lengthFrom: '../validation/ucs2length.js',
      }),
  },
  {
    path: 'verification/verification-report-validator.generated.ts',
    source: (require) =>
      standaloneValidatorSource(require, {
        schema: VERIFICATION_REPORT_JSON_SCHEMA,
        dialect: 'draft-07',
        options: { allErrors: true, strict: false },
        exportName: 'verificationReportValidator',
        description: 'The compiled `a3s.verification_report.v1` schema validator.',
        generatedBy: `${GENERATED_BY} from verification-report-schema.ts`,
        ucs2lengthFrom: '../validation/ucs2length.js',
      }),
  },
];
