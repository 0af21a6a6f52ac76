import { confirmationLaneOf } from '../../confirmation/confirmation-lane.js';
import type { PermissionDecision } from '../../permission/permission-policy.js';
import type { InvocationCall, StageStop } from '../invocation-call.js';
import type { KernelDeps } from '../kernel-deps.js';
import { emitCallEvent } from '../kernel-deps.js';
import { capabilitiesOf } from './permission-target.js';
import { denyCall } from './permission.js';
import { journalOf } from './journal.js';

/**
 * Stage 8: turns an `ask` into a human decision. No confirmation manager, or a disabled one,
 * fails CLOSED with a reason that says how to allow the call. While waiting the call is
 * `gate-pending`; aborting the call cancels the pending confirmation.
 */
export async function confirmCall(deps: KernelDeps, call: InvocationCall, decision: PermissionDecision): Promise<StageStop | undefined> {
  const manager = deps.confirmation;
  if (manager === null || !manager.enabled) {
    const how = manager === null ? 'no confirmation provider is configured' : 'confirmations are disabled (confirmationPolicy.enabled: false)';
    return denyCall(deps, call, `'${call.toolName}' requires confirmation (${decision.reason}) but ${how}; add a matching rule to permissionPolicy.allow or enable confirmationPolicy to allow it`, decision.rule);
  }
  const tool = call.tool!;
  const lane = confirmationLaneOf(call.toolName, call.capabilities(() => capabilitiesOf(tool, call.args)), tool.orchestration);
  const notice = noticeOf(deps, call);
  // Durable runs: an answer recorded earlier (this run's previous attempt, or given from another
  // process while no worker held the run) is applied without asking again.
  const journal = journalOf(deps, call);
  if (journal !== null) {
    const recorded = await journal.confirmationAnswer(call.toolId);
    if (recorded !== null) return recorded.approved ? undefined : denyCall(deps, call, `rejected: ${recorded.reason ?? 'rejected by the host'}`, decision.rule);
    await journal.recordConfirmationRequest(call.toolId, { toolName: call.toolName, args: deps.security.redactValue(call.args) });
  }
  call.lifecycle.transition('gate-pending');
  const waitStarted = call.trace === null ? 0 : Date.now();
  const outcome = await manager.request({
    toolId: call.toolId,
    toolName: call.toolName,
    args: deps.security.redactValue(call.args),
    ...(notice === undefined ? {} : { notice: deps.security.redact(notice) }),
    lane,
    abortSignal: call.signal,
    emit: (event) => emitCallEvent(deps, call, event),
  });
  if (journal !== null && outcome.source !== 'cancelled') await journal.recordConfirmationAnswer(call.toolId, { approved: outcome.approved, reason: outcome.reason });
  call.trace?.confirmation(outcome.source === 'timeout' ? 'timeout' : outcome.source === 'cancelled' ? 'cancelled' : outcome.approved ? 'approved' : 'rejected', Date.now() - waitStarted);
  if (outcome.approved) return undefined;
  if (outcome.source === 'cancelled' && call.aborted) return undefined; // the kernel reports the abort itself
  const who = outcome.source === 'timeout' ? 'confirmation timed out' : 'rejected';
  return denyCall(deps, call, `${who}: ${outcome.reason}`, decision.rule);
}

/** The tool's `confirmationNotice` for this call; a notice that throws says so rather than hiding the confirmation. */
function noticeOf(deps: KernelDeps, call: InvocationCall): string | undefined {
  const tool = call.tool!;
  if (tool.confirmationNotice === undefined) return undefined;
  try {
    return tool.confirmationNotice(call.args as never, deps.services);
  } catch (error) {
    return `(what approving this call unlocks could not be described: ${error instanceof Error ? error.message : String(error)})`;
  }
}
