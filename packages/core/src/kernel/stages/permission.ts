import { strictestPermission } from '../../permission/permission-policy.js';
import type { PermissionDecision } from '../../permission/permission-policy.js';
import type { InvocationCall, ResolvedTarget, StageStop } from '../invocation-call.js';
import type { KernelDeps } from '../kernel-deps.js';
import { createAgentEvent } from '../../events/agent-event.js';
import { emitCallEvent } from '../kernel-deps.js';
import { resolvePermissionTarget } from './permission-target.js';

const ALLOW_ALL: PermissionDecision = Object.freeze({ decision: 'allow', reason: 'no permission policy configured' });

/**
 * Stage 6: the session's permission policy (deny > ask > allow; strictest match wins). Paths
 * are resolved through the workspace first; a path that fails confinement denies the call.
 * No policy means allow (tool-owned escalation may still ask). Synchronous unless paths must
 * be resolved.
 */
export function decidePermission(deps: KernelDeps, call: InvocationCall): PermissionDecision | Promise<PermissionDecision> {
  const policy = deps.policy;
  if (policy === null && deps.inheritedPolicies.length === 0) return ALLOW_ALL;
  const resolved = resolvePermissionTarget(deps, call);
  if (!(resolved instanceof Promise) && resolved.target.kind === 'none') {
    let decision = deps.noneTargetDecisions.get(call.toolName);
    if (decision === undefined) {
      decision = evaluate(deps, call, resolved);
      deps.noneTargetDecisions.set(call.toolName, decision);
    }
    return decision;
  }
  if (resolved instanceof Promise) return resolved.then((target) => evaluate(deps, call, target));
  return evaluate(deps, call, resolved);
}

function evaluate(deps: KernelDeps, call: InvocationCall, resolved: ResolvedTarget): PermissionDecision {
  const first = resolved.unresolved[0];
  if (first !== undefined) return { decision: 'deny', reason: `path '${first.path}' cannot be used: ${first.reason}` };
  const request = { toolName: call.toolName, target: resolved.target };
  // A child session never exceeds its ancestors: the strictest decision of every policy wins.
  return strictestPermission([deps.policy, ...deps.inheritedPolicies], request);
}

/**
 * Ends a call denied by policy, by a human or for want of a human: emits `permission_denied`
 * (reason redacted) and returns the `permission_denied` result.
 */
export function denyCall(deps: KernelDeps, call: InvocationCall, reason: string, rule?: string): StageStop {
  const safeReason = deps.security.redact(reason);
  const payload = { tool_id: call.toolId, tool_name: call.toolName, reason: safeReason, origin: call.origin };
  emitCallEvent(deps, call, createAgentEvent('permission_denied', rule === undefined ? payload : { ...payload, rule }));
  return { output: { output: `Permission denied: ${safeReason}`, exitCode: 1, errorKind: { type: 'permission_denied', reason: safeReason } }, outcome: 'denied' };
}
