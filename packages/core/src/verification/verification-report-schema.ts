/** Schema name of a verification report document. */
export const VERIFICATION_REPORT_SCHEMA = 'a3s.verification_report.v1';

const status = { enum: ['passed', 'failed', 'skipped', 'error'] } as const;
const text = (max: number) => ({ type: 'string', minLength: 1, maxLength: max }) as const;

/** JSON Schema (draft-07) of a `VerificationReportV1` (verification-report.ts). */
export const VERIFICATION_REPORT_JSON_SCHEMA = {
  type: 'object',
  required: ['schema', 'subject', 'status', 'checks'],
  additionalProperties: false,
  properties: {
    schema: { const: VERIFICATION_REPORT_SCHEMA },
    subject: text(1024),
    status,
    summary: { type: 'string', maxLength: 16_384 },
    source: text(256),
    recordedAtMs: { type: 'integer', minimum: 0 },
    checks: {
      type: 'array',
      maxItems: 1024,
      items: {
        type: 'object',
        required: ['id', 'kind', 'description', 'status', 'required'],
        additionalProperties: false,
        properties: {
          id: text(256),
          kind: text(64),
          description: { type: 'string', maxLength: 4096 },
          status,
          required: { type: 'boolean' },
          command: { type: 'string', maxLength: 16_384 },
          exitCode: { type: 'integer' },
          durationMs: { type: 'number', minimum: 0 },
          output: { type: 'string', maxLength: 65_536 },
          error: { type: 'string', maxLength: 16_384 },
        },
      },
    },
  },
} as const;
