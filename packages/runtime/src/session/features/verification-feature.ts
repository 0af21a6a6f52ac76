import { CodeError } from '@a3s-lab/code-core';
import { VerificationLedger } from '../../verification/verification-ledger.js';
import type { VerificationCommand, VerificationReportV1, VerificationSummary } from '@a3s-lab/code-core';
import type { SessionFeature } from '../session-feature.js';
import { runVerificationCommands } from '../verify-commands.js';
import type { FeatureContext } from './feature-context.js';

/** The session's evidence: verification reports recorded or produced by governed commands. */
export interface VerificationFeature extends SessionFeature {
  /**
   * Records `a3s.verification_report.v1` documents. Every document is validated first; one bad
   * document is refused with SESSION_ERROR and nothing is recorded. Returns the recorded copies.
   */
  record(reports: readonly unknown[]): VerificationReportV1[];
  /**
   * Runs each command through the governed `bash` path (origin `verification`: permission
   * policy, confirmation and hooks apply; a denied command is an `error` check), records the
   * report and returns it.
   */
  verifyCommands(subject: string, commands: readonly VerificationCommand[]): Promise<VerificationReportV1>;
  /** Every retained report, oldest first. */
  reports(): VerificationReportV1[];
  /** The summary `agent_end` would carry now; `null` without reports. */
  summary(): VerificationSummary | null;
}

export function verificationFeature(ctx: FeatureContext): VerificationFeature {
  const ledger = new VerificationLedger();
  return {
    name: 'verification',
    record: (reports) => {
      if (!Array.isArray(reports)) throw new CodeError('SESSION_ERROR', 'recordVerificationReports expects an array of reports', { details: { field: 'reports' } });
      const recorded = ledger.record(reports);
      ctx.afterOperation('verification');
      return recorded;
    },
    verifyCommands: async (subject, commands) => {
      ctx.requireOpen('verifyCommands');
      const report = await runVerificationCommands(subject, commands, {
        hasBash: ctx.registry.get('bash') !== null,
        invoke: (command, timeoutMs) => ctx.hostCall({ toolName: 'bash', args: { command, ...(timeoutMs === undefined ? {} : { timeout: timeoutMs }) }, origin: 'verification' }),
      });
      const [recorded] = ledger.record([report]);
      ctx.afterOperation('verification');
      return recorded ?? report;
    },
    reports: () => ledger.reports(),
    summary: () => ledger.summary(),
    capture: () => ({ verificationReports: ledger.reports() }),
    restore: (snapshot) => ledger.restore(snapshot.verificationReports),
  };
}
