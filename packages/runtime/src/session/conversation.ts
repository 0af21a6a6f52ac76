import { validateMessages } from '@a3s-lab/code-core/kernel';
import type { LlmContentPart, LlmMessage } from '@a3s-lab/code-core';

/** An opaque point in a {@link Conversation} to roll back to. */
export interface ConversationCheckpoint {
  readonly messages: readonly LlmMessage[];
  readonly revision: number;
}

/**
 * The session's conversation: the ONLY writer of its messages. The turn loop appends, the
 * compactor replaces, the run executor checkpoints before a run and rolls back a run that left
 * no trace, and snapshots read a consistent copy. Messages handed in are kept as given (callers
 * must not mutate them afterwards); `messages()` is a read-only view for model requests.
 */
export class Conversation {
  #messages: LlmMessage[];
  #revision = 0;

  /** @param messages initial messages (validated, copied). */
  constructor(messages: readonly LlmMessage[] = []) {
    this.#messages = validateMessages(messages, 'history').slice();
  }

  /** The current messages, oldest first (a read-only view: do not keep it across writes). */
  messages(): readonly LlmMessage[] {
    return this.#messages;
  }

  /** Number of messages. */
  get length(): number {
    return this.#messages.length;
  }

  /** Counts every write; a snapshot taken at revision N equals any other taken at N. */
  get revision(): number {
    return this.#revision;
  }

  /** Appends one message. */
  append(message: LlmMessage): void {
    this.#messages.push(message);
    this.#revision += 1;
  }

  /** Replaces every message (request `history`, compaction, restore). Validated first: a bad list changes nothing. */
  replace(messages: readonly LlmMessage[]): void {
    const next = validateMessages(messages, 'history').slice();
    this.#messages = next;
    this.#revision += 1;
  }

  /** The position of `message` (identity), or -1 (e.g. after it was summarised away). */
  indexOf(message: LlmMessage): number {
    return this.#messages.lastIndexOf(message);
  }

  /** Drops every message from index `length` on. */
  truncate(length: number): void {
    if (length >= this.#messages.length) return;
    this.#messages = this.#messages.slice(0, Math.max(0, length));
    this.#revision += 1;
  }

  /** A point to come back to with {@link rollback}. Cheap: messages are never mutated in place. */
  checkpoint(): ConversationCheckpoint {
    return { messages: this.#messages.slice(), revision: this.#revision };
  }

  /** Restores exactly the messages of `checkpoint`. */
  rollback(checkpoint: ConversationCheckpoint): void {
    this.#messages = checkpoint.messages.slice();
    this.#revision += 1;
  }

  /**
   * Keeps the conversation valid after a run stopped mid-way: every tool call of the last
   * assistant message gets a tool result saying why it did not run, so the next request is
   * accepted by every provider. Returns true when a message was added.
   */
  answerDanglingToolCalls(reason: string): boolean {
    const last = this.#messages.at(-1);
    if (last === undefined || last.role !== 'assistant') return false;
    const calls = last.content.filter((p): p is Extract<LlmContentPart, { type: 'tool_call' }> => p.type === 'tool_call');
    if (calls.length === 0) return false;
    this.append({
      role: 'user',
      content: calls.map((c) => ({ type: 'tool_result' as const, toolCallId: c.id, content: `not executed: ${reason}`, isError: true })),
    });
    return true;
  }

  /** A deep, JSON-safe copy for snapshots. */
  snapshot(): LlmMessage[] {
    return structuredClone(this.#messages);
  }
}
