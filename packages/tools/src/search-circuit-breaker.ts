/** Consecutive failures of one engine that open its breaker. */
export const SEARCH_BREAKER_THRESHOLD = 3;
/** How long an open breaker skips its engine before one trial call: 60 s. */
export const SEARCH_BREAKER_COOLDOWN_MS = 60_000;

/**
 * A per-engine circuit breaker: after `threshold` consecutive failures the engine is skipped
 * for `cooldownMs`, then one trial call decides (success closes it, failure re-opens it).
 * A cancelled call counts for nothing.
 */
export class SearchCircuitBreaker {
  readonly #threshold: number;
  readonly #cooldownMs: number;
  readonly #now: () => number;
  #failures = 0;
  #openedAtMs: number | null = null;

  constructor(options: { readonly threshold?: number; readonly cooldownMs?: number; readonly now?: () => number } = {}) {
    this.#threshold = options.threshold ?? SEARCH_BREAKER_THRESHOLD;
    this.#cooldownMs = options.cooldownMs ?? SEARCH_BREAKER_COOLDOWN_MS;
    this.#now = options.now ?? Date.now;
  }

  /** `null` when a call may go ahead, else how many ms the breaker stays open. */
  openFor(): number | null {
    if (this.#openedAtMs === null) return null;
    const left = this.#openedAtMs + this.#cooldownMs - this.#now();
    return left > 0 ? left : null;
  }

  /** Records a successful call. */
  succeeded(): void {
    this.#failures = 0;
    this.#openedAtMs = null;
  }

  /** Records a failed call; opens (or re-opens) the breaker at the threshold. */
  failed(): void {
    this.#failures += 1;
    if (this.#failures >= this.#threshold) this.#openedAtMs = this.#now();
  }
}
