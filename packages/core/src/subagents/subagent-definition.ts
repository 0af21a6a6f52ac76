import { assertNever } from '../errors/assert-never.js';
import type { PermissionPolicy } from '../permission/permission-policy.js';
import type { WorkerKind } from '../session/session-options.js';

/** How a child resolves `ask` decisions. */
export type ConfirmationInheritance = 'auto_approve' | 'deny_on_ask' | 'inherit_parent';

/** Tools of a child: a fixed list, or everything the parent offers but delegation. */
export type SubagentToolSet = readonly string[] | 'all';

/** An agent a session can delegate to (built-in or worker spec). */
export interface SubagentDefinition {
  readonly name: string;
  readonly description: string;
  readonly kind: WorkerKind;
  /** The child's system prompt instructions. */
  readonly prompt: string;
  readonly tools: SubagentToolSet;
  /** `provider/model`; default the parent's model. */
  readonly model?: string;
  /** Model turns that may request tools (the child's `maxToolRounds`). */
  readonly maxSteps: number;
  /** The child's own rules; intersected with the parent's, never wider. */
  readonly permissions?: PermissionPolicy;
  readonly confirmationInheritance: ConfirmationInheritance;
  readonly builtin: boolean;
}

/** What approving a delegation to one agent lets its child do. */
export interface SubagentAuthority {
  readonly agent: string;
  readonly confirmationInheritance: ConfirmationInheritance;
  /** The child's tools (within the parent's surface, never the delegation tools). */
  readonly tools: readonly string[];
  /**
   * Tools the child may run without a human being asked: every tool it has with `auto_approve`
   * (permission deny rules still hold), none with `deny_on_ask` or `inherit_parent` beyond what
   * policy already allows.
   */
  readonly unconfirmedTools: readonly string[];
}

/** One line per authority, e.g. "'general' (auto_approve): may run without asking: read, write, bash; deny rules still hold". */
export function describeSubagentAuthority(authority: SubagentAuthority): string {
  const head = `subagent '${authority.agent}' (confirmationInheritance: ${authority.confirmationInheritance})`;
  switch (authority.confirmationInheritance) {
    case 'auto_approve':
      return `${head} may run without asking: ${authority.unconfirmedTools.length === 0 ? '(no tools)' : authority.unconfirmedTools.join(', ')}; every call policy would ask about is approved, deny rules still hold`;
    case 'deny_on_ask':
      return `${head} may run only what policy allows outright (${authority.tools.join(', ') || 'no tools'}); every call policy would ask about is denied`;
    case 'inherit_parent':
      return `${head} asks you for every call policy would ask about (tools: ${authority.tools.join(', ') || 'none'})`;
    default:
      return assertNever(authority.confirmationInheritance, 'confirmation inheritance');
  }
}
