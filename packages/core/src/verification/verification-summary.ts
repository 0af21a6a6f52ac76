import type { VerificationReportV1, VerificationStatus } from './verification-report.js';

/** The latest report of one subject, as summarised. */
export type VerificationSubjectSummary = {
  readonly subject: string;
  readonly status: VerificationStatus;
  readonly checks: number;
  /** Ids of required checks that did not pass. */
  readonly failedRequired: readonly string[];
};

/** What `agent_end.verification_summary` and `SendResult.verificationSummary` carry. */
export type VerificationSummary = {
  /** `passed` when every subject passed (or was skipped), `failed` otherwise. */
  readonly status: 'passed' | 'failed';
  readonly reports: number;
  readonly passed: number;
  readonly failed: number;
  readonly subjects: readonly VerificationSubjectSummary[];
};

/**
 * Summarises the session's evidence: the latest report of each subject counts. `null` when no
 * report was recorded.
 */
export function summarizeVerification(reports: readonly VerificationReportV1[]): VerificationSummary | null {
  if (reports.length === 0) return null;
  const latest = new Map<string, VerificationReportV1>();
  for (const report of reports) {
    latest.delete(report.subject);
    latest.set(report.subject, report);
  }
  const subjects = [...latest.values()].map((r) => ({
    subject: r.subject,
    status: r.status,
    checks: r.checks.length,
    failedRequired: r.checks.filter((c) => c.required && c.status !== 'passed' && c.status !== 'skipped').map((c) => c.id),
  }));
  const passed = subjects.filter((s) => s.status === 'passed' || s.status === 'skipped').length;
  return { status: passed === subjects.length ? 'passed' : 'failed', reports: reports.length, passed, failed: subjects.length - passed, subjects };
}

/** One line for humans: `verification passed: 2/2 subjects (unit, lint)` or which checks failed. */
export function verificationSummaryText(summary: VerificationSummary | null): string | null {
  if (summary === null) return null;
  const total = summary.subjects.length;
  if (summary.status === 'passed') return `verification passed: ${total}/${total} subjects (${summary.subjects.map((s) => s.subject).join(', ')})`;
  const failing = summary.subjects
    .filter((s) => s.status !== 'passed' && s.status !== 'skipped')
    .map((s) => `${s.subject} ${s.status}${s.failedRequired.length === 0 ? '' : ` [${s.failedRequired.join(', ')}]`}`);
  return `verification failed: ${summary.passed}/${total} subjects passed; ${failing.join('; ')}`;
}
