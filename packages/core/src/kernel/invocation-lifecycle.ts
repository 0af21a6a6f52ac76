import { CodeError } from '../errors/code-error.js';

/** How an invocation ended. */
export type InvocationOutcome = 'completed' | 'failed' | 'denied' | 'cancelled' | 'timed_out';

/**
 * Where an invocation is:
 * - `created`: accepted by `invoke`, not yet resolved and validated;
 * - `admitted`: the tool exists and the arguments are valid; gates are being evaluated;
 * - `gate-pending`: waiting on a human confirmation;
 * - `running`: `execute` has been called;
 * - an {@link InvocationOutcome}: terminal.
 */
export type InvocationState = 'created' | 'admitted' | 'gate-pending' | 'running' | InvocationOutcome;

const TERMINAL: ReadonlySet<InvocationState> = new Set<InvocationState>(['completed', 'failed', 'denied', 'cancelled', 'timed_out']);

/**
 * Legal successors of each non-terminal state. `completed` follows `running`, or `admitted` when
 * a pre-hook skipped the call.
 */
const NEXT: Readonly<Record<'created' | 'admitted' | 'gate-pending' | 'running', ReadonlySet<InvocationState>>> = {
  created: new Set<InvocationState>(['admitted', 'failed', 'denied', 'cancelled', 'timed_out']),
  // admitted -> completed: a pre-hook skipped the call, which therefore ends successfully unrun.
  admitted: new Set<InvocationState>(['gate-pending', 'running', 'completed', 'failed', 'denied', 'cancelled', 'timed_out']),
  'gate-pending': new Set<InvocationState>(['running', 'failed', 'denied', 'cancelled', 'timed_out']),
  running: new Set<InvocationState>(['completed', 'failed', 'cancelled', 'timed_out']),
};

/** True for a terminal state. */
export function isTerminalState(state: InvocationState): state is InvocationOutcome {
  return TERMINAL.has(state);
}

/**
 * The state machine of one invocation: created -> admitted -> gate-pending -> running ->
 * terminal. Any transition that is not in the table — in particular ANY transition after a
 * terminal state — throws INTERNAL_ERROR, so a late timer or a double settle cannot rewrite how
 * a call ended.
 */
export class InvocationLifecycle {
  #state: InvocationState = 'created';

  /** @param toolId used in error details only. */
  constructor(readonly toolId: string) {}

  /** The current state. */
  get state(): InvocationState {
    return this.#state;
  }

  /** True once the invocation has ended. */
  get terminal(): boolean {
    return TERMINAL.has(this.#state);
  }

  /** Moves to `next`; throws INTERNAL_ERROR when the transition is illegal. */
  transition(next: InvocationState): void {
    const from = this.#state;
    const allowed = TERMINAL.has(from) ? undefined : NEXT[from as keyof typeof NEXT];
    if (allowed === undefined || !allowed.has(next)) {
      throw new CodeError('INTERNAL_ERROR', `illegal invocation transition ${from} -> ${next} for tool call '${this.toolId}'`, {
        details: { toolId: this.toolId, from, to: next },
      });
    }
    this.#state = next;
  }
}
