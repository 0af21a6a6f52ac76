import type { StageStop } from '../invocation-call.js';

/**
 * Stage 3: while a skill restricts the tool surface (`allowed` non-null), any other tool is
 * denied. Applies to every origin, host-direct included: the restriction is part of what the
 * active skill promised, not a model-facing permission prompt.
 */
export function checkActiveSkill(allowed: readonly string[] | null, toolName: string): StageStop | undefined {
  if (allowed === null || allowed.includes(toolName)) return undefined;
  const reason = `tool '${toolName}' is not allowed by the active skill (allowed: ${allowed.join(', ') || 'none'})`;
  return { output: { output: `Permission denied: ${reason}`, exitCode: 1, errorKind: { type: 'permission_denied', reason } }, outcome: 'denied' };
}
