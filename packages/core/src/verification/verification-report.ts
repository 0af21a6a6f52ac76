import type { ErrorObject } from 'ajv';
import { CodeError } from '../errors/code-error.js';
import { VERIFICATION_REPORT_SCHEMA } from './verification-report-schema.js';
import { verificationReportValidator } from './verification-report-validator.generated.js';

export { VERIFICATION_REPORT_JSON_SCHEMA, VERIFICATION_REPORT_SCHEMA } from './verification-report-schema.js';

/** Outcome of a check or a report. */
export type VerificationStatus = 'passed' | 'failed' | 'skipped' | 'error';

/** One check of a {@link VerificationReportV1}. */
export interface VerificationCheckV1 {
  readonly id: string;
  /** What kind of evidence: `test`, `lint`, `build`, `typecheck`, `review`... (free text). */
  readonly kind: string;
  readonly description: string;
  readonly status: VerificationStatus;
  /** A required check that did not pass fails the report. */
  readonly required: boolean;
  readonly command?: string;
  readonly exitCode?: number;
  readonly durationMs?: number;
  /** Bounded output excerpt (evidence). */
  readonly output?: string;
  /** Why the check could not run (status `error`). */
  readonly error?: string;
}

/**
 * An `a3s.verification_report.v1` document: evidence that a subject was checked. Recorded by
 * `session.recordVerificationReports()` (external systems) or `session.verifyCommands()`.
 */
export interface VerificationReportV1 {
  readonly schema: typeof VERIFICATION_REPORT_SCHEMA;
  readonly subject: string;
  readonly status: VerificationStatus;
  readonly checks: readonly VerificationCheckV1[];
  readonly summary?: string;
  /** Who produced it (`verifyCommands`, a CI system...). */
  readonly source?: string;
  /** Set by the session when it records the report. */
  readonly recordedAtMs?: number;
}


function describe(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  const path = error.instancePath || '/';
  if (error.keyword === 'additionalProperties') return `${path}: unexpected property '${String(params['additionalProperty'])}'`;
  if (error.keyword === 'required') return `${path}: missing '${String(params['missingProperty'])}'`;
  return `${path}: ${error.message ?? error.keyword}`;
}

/**
 * Validates one report: the schema, unique check ids, and a status that agrees with its checks
 * (a report cannot be `passed` while a required check did not pass). Throws SESSION_ERROR with
 * `details.field` naming the bad report (`reports[2]`) and every failing path.
 */
export function validateVerificationReport(value: unknown, field = 'report'): VerificationReportV1 {
  // Precompiled at development time (scripts/generate-validators.ts).
  const validateSchema = verificationReportValidator;
  if (!validateSchema(value)) {
    const problems = [...new Set((validateSchema.errors ?? []).map(describe))].slice(0, 8);
    throw invalid(field, problems.join('; '));
  }
  const report = value as unknown as VerificationReportV1;
  const ids = new Set<string>();
  for (const check of report.checks) {
    if (ids.has(check.id)) throw invalid(field, `duplicate check id '${check.id}'`);
    ids.add(check.id);
  }
  const requiredNotPassed = report.checks.filter((c) => c.required && c.status !== 'passed' && c.status !== 'skipped');
  if (report.status === 'passed' && requiredNotPassed.length > 0) {
    throw invalid(field, `status 'passed' contradicts required check '${requiredNotPassed[0]?.id}' (${requiredNotPassed[0]?.status})`);
  }
  return report;
}

function invalid(field: string, problem: string): CodeError {
  return new CodeError('SESSION_ERROR', `invalid ${VERIFICATION_REPORT_SCHEMA} document ${field}: ${problem}`, { details: { field, schema: VERIFICATION_REPORT_SCHEMA } });
}
