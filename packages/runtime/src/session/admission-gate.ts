import { CodeError } from '@a3s-lab/code-core';

/** A held admission; `release()` is idempotent. */
export interface AdmissionLease {
  readonly operation: string;
  release(): void;
}

/**
 * Single-flight admission for transcript-affecting operations (`send`, `stream`). An overlap
 * fails fast with SESSION_BUSY — there is no hidden queue — and a closed gate rejects with
 * SESSION_CLOSED.
 */
export class AdmissionGate {
  #holder: { operation: string; token: object } | null = null;
  #closed = false;

  /** Takes the gate for `operation` or throws SESSION_BUSY / SESSION_CLOSED. */
  acquire(operation: string): AdmissionLease {
    if (this.#closed) throw new CodeError('SESSION_CLOSED', `session is closed; ${operation} rejected`, { details: { operation } });
    if (this.#holder !== null) {
      throw new CodeError('SESSION_BUSY', `session is busy with ${this.#holder.operation}; finish or cancel it before starting ${operation}`, {
        details: { operation, activeOperation: this.#holder.operation },
      });
    }
    const token = {};
    this.#holder = { operation, token };
    return {
      operation,
      release: () => {
        if (this.#holder?.token === token) this.#holder = null;
      },
    };
  }

  /** The operation holding the gate, or `null`. */
  get activeOperation(): string | null {
    return this.#holder?.operation ?? null;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Closes the gate: every later `acquire` throws SESSION_CLOSED. */
  close(): void {
    this.#closed = true;
  }
}
