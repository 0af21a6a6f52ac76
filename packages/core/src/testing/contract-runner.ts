/** What a case body gets from the runner: a way to mark the running case skipped. */
export interface ContractCaseContext {
  /** Marks the case skipped (vitest's `context.skip`, node:test's `t.skip`). */
  skip(note?: string): void;
}

/**
 * The two functions a contract suite needs from a test runner. Both vitest's and node:test's
 * `describe` / `it` fit as they are, so the suites import no runner at load:
 *
 * @example
 * import { describe, it } from 'vitest';      // or: from 'node:test'
 * describeWorkspaceContract('MyBackend', factory, { runner: { describe, it } });
 */
export interface ContractRunner {
  describe(name: string, body: () => void): unknown;
  /** `timeoutMs` is vitest's third argument; node:test ignores a third argument. */
  it(title: string, body: (context: ContractCaseContext) => Promise<void>, timeoutMs?: number): unknown;
}
