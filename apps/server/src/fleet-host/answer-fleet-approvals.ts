import type { ConfirmationAnswer } from '../answer-confirmations.js';
import { ServerError } from '../server-error.js';
import type { FleetHost } from './fleet-host.js';

/**
 * Answers a client's approval answers for fleet run `runId` (approval ids are tool ids, see
 * `fleetProjectionEvent`) and returns the sequence of the latest `confirmation_required` they
 * answer, where the continuation starts. NOT_FOUND when the run waits for none of them (answered
 * meanwhile in another tab or process: the page reloads the conversation).
 */
export async function answerFleetApprovals(host: FleetHost, sessionId: string, runId: string, answers: readonly ConfirmationAnswer[]): Promise<number> {
  await host.fleetRun(sessionId, runId);
  const pending = new Set((await host.pendingConfirmations(sessionId)).filter((p) => p.runId === runId).map((p) => p.toolId));
  const waiting = answers.filter((a) => pending.has(a.approvalId));
  if (waiting.length === 0) throw new ServerError('NOT_FOUND', `run '${runId}' waits for none of the confirmations answered (answered or unknown)`, { runId, approvalIds: answers.map((a) => a.approvalId) });
  // A pending confirmation's event is written right after its journal step: reading stops once
  // each answered one was seen (a run that ended meanwhile simply ends the read).
  const asked = new Map<string, number>();
  const abort = new AbortController();
  for await (const event of host.events(runId, 0, abort.signal)) {
    const toolId = event.payload['tool_id'];
    if (event.type === 'confirmation_required' && typeof toolId === 'string' && pending.has(toolId)) asked.set(toolId, Number(event.metadata?.['sequence']));
    if (waiting.every((a) => asked.has(a.approvalId))) break;
  }
  abort.abort();
  let from = 0;
  for (const answer of waiting) {
    from = Math.max(from, asked.get(answer.approvalId) ?? 0);
    await host.fleet.confirm(runId, answer.approvalId, answer.approved, answer.reason);
  }
  return from;
}
