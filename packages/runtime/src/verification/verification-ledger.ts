import { validateVerificationReport } from '@a3s-lab/code-core';
import type { VerificationReportV1, VerificationSummary } from '@a3s-lab/code-core';
import { summarizeVerification } from '@a3s-lab/code-core/kernel';

/** Default number of reports a session keeps (oldest evicted first). */
export const DEFAULT_MAX_VERIFICATION_REPORTS = 256;

/** The session's verification evidence: the only owner of its reports. */
export class VerificationLedger {
  readonly #max: number;
  #reports: VerificationReportV1[] = [];

  constructor(maxReports = DEFAULT_MAX_VERIFICATION_REPORTS) {
    this.#max = maxReports;
  }

  /**
   * Validates every report first and records them only when all are valid (a bad document
   * records nothing). Each gets `recordedAtMs` when it has none. Returns the recorded copies.
   */
  record(reports: readonly unknown[], now = Date.now()): VerificationReportV1[] {
    const valid = reports.map((r, i) => validateVerificationReport(r, `reports[${i}]`));
    const recorded = valid.map((r) => structuredClone({ ...r, recordedAtMs: r.recordedAtMs ?? now }));
    this.#reports.push(...recorded);
    if (this.#reports.length > this.#max) this.#reports.splice(0, this.#reports.length - this.#max);
    return recorded.map((r) => structuredClone(r));
  }

  /** Every retained report, oldest first (copies). */
  reports(): VerificationReportV1[] {
    return structuredClone(this.#reports);
  }

  /** The summary of the retained reports, or `null` without any. */
  summary(): VerificationSummary | null {
    return summarizeVerification(this.#reports);
  }

  /** Replaces the reports (restore from a snapshot; validated). */
  restore(reports: readonly unknown[]): void {
    const valid = reports.map((r, i) => validateVerificationReport(r, `verificationReports[${i}]`));
    this.#reports = structuredClone(valid).slice(-this.#max);
  }
}
