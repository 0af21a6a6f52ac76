import type { Agent, SessionOptions } from '@a3s-lab/code';

/** What every session of a host runs under: the server's policies, never a client's. */
export interface SessionPolicies {
  readonly agent: Agent;
  readonly permissionPolicy: NonNullable<SessionOptions['permissionPolicy']>;
  readonly confirmationPolicy: NonNullable<SessionOptions['confirmationPolicy']>;
}

/**
 * The policy part of the session options of every session of a host (single-host or fleet,
 * created or resumed). Approving a `task` must not approve what its child runs: the child's asks
 * reach the same human, unless the agent's config chooses otherwise (`subagent_confirmation_inheritance`).
 */
export function sessionPolicyOptions(policies: SessionPolicies): Pick<SessionOptions, 'permissionPolicy' | 'confirmationPolicy' | 'subagentConfirmationInheritance'> {
  return {
    permissionPolicy: policies.permissionPolicy,
    confirmationPolicy: policies.confirmationPolicy,
    subagentConfirmationInheritance: policies.agent.config.subagentConfirmationInheritance ?? 'inherit_parent',
  };
}
