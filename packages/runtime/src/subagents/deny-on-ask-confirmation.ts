import { ConfirmationManager } from '@a3s-lab/code-core/kernel';
import type { ConfirmationOutcome } from '@a3s-lab/code-core';
import type { ConfirmationLane, ConfirmationRequest } from '@a3s-lab/code-core/kernel';
import { CodeError } from '@a3s-lab/code-core';

/**
 * A child's confirmations under `confirmationInheritance: 'deny_on_ask'`: the first `ask` is
 * refused and ends the child run. The call is denied (`permission_denied`, nothing runs), the
 * refusal is kept as a `SECURITY_ERROR` (details `reason: 'deny_on_ask'`, `agent`, `tool`) and
 * `onAsk` is told, so the task fails with that error instead of letting the child carry on.
 */
export class DenyOnAskConfirmationManager extends ConfirmationManager {
  readonly #agent: string;
  readonly #onAsk: (refusal: CodeError) => void;
  #refusal: CodeError | null = null;

  constructor(agent: string, onAsk: (refusal: CodeError) => void) {
    super({ enabled: true, yoloLanes: [] });
    this.#agent = agent;
    this.#onAsk = onAsk;
  }

  /** The refusal that ended the child run, or null while it never asked. */
  get refusal(): CodeError | null {
    return this.#refusal;
  }

  override isYolo(_lane: ConfirmationLane): boolean {
    return false;
  }

  override request(request: ConfirmationRequest): Promise<ConfirmationOutcome> {
    const reason = `subagent '${this.#agent}' has confirmationInheritance 'deny_on_ask': '${request.toolName}' needs confirmation, so the child run fails`;
    if (this.#refusal === null) {
      this.#refusal = new CodeError('SECURITY_ERROR', reason, { details: { reason: 'deny_on_ask', confirmationInheritance: 'deny_on_ask', agent: this.#agent, tool: request.toolName } });
      this.#onAsk(this.#refusal);
    }
    return Promise.resolve({ approved: false, reason, source: 'user' });
  }
}
