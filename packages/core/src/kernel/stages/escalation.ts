import type { PermissionDecision } from '../../permission/permission-policy.js';
import type { AnyTool } from '../../tools/tool-registry.js';

/**
 * Stage 7: tool-owned escalation. A tool may turn an `allow` into an `ask` (with its reason),
 * never relax: `ask` and `deny` pass through unchanged whatever the tool says.
 */
export function applyEscalation(tool: AnyTool, args: unknown, decision: PermissionDecision): PermissionDecision {
  if (decision.decision !== 'allow' || tool.escalate === undefined) return decision;
  const reason = tool.escalate(args);
  if (typeof reason !== 'string' || reason.length === 0) return decision;
  return { decision: 'ask', reason: `escalated by tool '${tool.name}': ${reason}`, ...(decision.rule === undefined ? {} : { rule: decision.rule }) };
}
