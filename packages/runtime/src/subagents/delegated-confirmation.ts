import { ConfirmationManager } from '@a3s-lab/code-core/kernel';
import type { AgentEvent, ConfirmationOutcome, PendingConfirmation } from '@a3s-lab/code-core';
import type { ConfirmationLane, ConfirmationRequest } from '@a3s-lab/code-core/kernel';

/**
 * A child's confirmations answered by the parent's human (`confirmationInheritance:
 * 'inherit_parent'`): every request goes to the parent's manager under a task-scoped id
 * (`<taskId>/<toolId>`, so ids of parent and children never collide) and its events are also
 * forwarded to the parent, where hosts see `confirmation_required` and answer with
 * `confirmToolUse` on the parent session.
 */
export class DelegatedConfirmationManager extends ConfirmationManager {
  readonly #parent: ConfirmationManager;
  readonly #prefix: string;
  readonly #forward: (event: AgentEvent) => void;

  constructor(parent: ConfirmationManager, prefix: string, forward: (event: AgentEvent) => void) {
    super(parent.policy);
    this.#parent = parent;
    this.#prefix = prefix;
    this.#forward = forward;
  }

  override get enabled(): boolean {
    return this.#parent.enabled;
  }

  override isYolo(lane: ConfirmationLane): boolean {
    return this.#parent.isYolo(lane);
  }

  override request(request: ConfirmationRequest): Promise<ConfirmationOutcome> {
    const own = request.emit;
    return this.#parent.request({
      ...request,
      toolId: this.#prefix + request.toolId,
      emit: (event) => {
        own?.(event);
        this.#forward(event);
      },
    });
  }

  override pending(): PendingConfirmation[] {
    return this.#parent.pending().filter((p) => p.toolId.startsWith(this.#prefix));
  }

  override confirm(toolId: string, approved: boolean, reason?: string): boolean {
    const scoped = toolId.startsWith(this.#prefix) ? toolId : this.#prefix + toolId;
    return this.#parent.confirm(scoped, approved, reason);
  }
}
