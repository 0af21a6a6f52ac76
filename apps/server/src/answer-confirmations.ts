import type { Session } from '@a3s-lab/code';
import { ServerError } from './server-error.js';

/** One answer of a protocol client to a confirmation it was shown (an approval part, an interrupt). */
export interface ConfirmationAnswer {
  /** The confirmation id (`confirmation_id` of its `confirmation_required`, else the tool id). */
  readonly approvalId: string;
  readonly approved: boolean;
  readonly reason?: string;
}

/**
 * Answers a protocol client's confirmation answers for run `runId` and returns the sequence its
 * continuation starts after: the latest `confirmation_required` they answer (where the earlier
 * stream stopped). An answer the session no longer waits for (given meanwhile in another tab or
 * through the API, timed out) is skipped: the stream shows what the run recorded. BAD_REQUEST
 * when the run asked none of them.
 */
export async function answerConfirmations(session: Session, runId: string, answers: readonly ConfirmationAnswer[]): Promise<number> {
  const asked = new Map<string, number>();
  for (const event of await session.runEvents(runId)) {
    if (event.type !== 'confirmation_required') continue;
    asked.set(event.payload.confirmation_id ?? event.payload.tool_id, Number(event.metadata?.['sequence']));
  }
  let from = -1;
  for (const answer of answers) {
    const sequence = asked.get(answer.approvalId);
    if (sequence === undefined) continue;
    from = Math.max(from, sequence);
    await session.confirmToolUse(answer.approvalId, answer.approved, answer.reason);
  }
  if (from < 0) throw new ServerError('BAD_REQUEST', `run '${runId}' asked none of the confirmations answered`, { runId, approvalIds: answers.map((a) => a.approvalId) });
  return from;
}

/** The run of the session that asked confirmation `approvalId`, newest first; null when none did. */
export async function runAsking(session: Session, approvalId: string): Promise<string | null> {
  for (const run of (await session.runs()).toReversed()) {
    for (const event of await session.runEvents(run.id)) {
      if (event.type === 'confirmation_required' && (event.payload.confirmation_id ?? event.payload.tool_id) === approvalId) return run.id;
    }
  }
  return null;
}
