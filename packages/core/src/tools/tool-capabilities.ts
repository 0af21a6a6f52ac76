/** What a tool's output is mostly made of; hosts use it to choose a renderer. */
export type ToolOutputKind = 'text' | 'structured' | 'diff' | 'mixed';

/**
 * Scheduling facts a tool declares for ONE invocation, computed from its arguments
 * (`edit` with `dry_run` is read-only; `edit` without it is not).
 */
export interface ToolCapabilities {
  /** The call changes nothing outside itself. */
  readonly readOnly: boolean;
  /** Running the call twice has the same effect as running it once. */
  readonly idempotent: boolean;
  /** An interrupted call can be resumed from a cursor or offset. */
  readonly resumable: boolean;
  /** Aborting the call mid-way leaves nothing half-done. */
  readonly cancellationSafe: boolean;
  /** Results come in pages with a continuation. */
  readonly supportsPagination: boolean;
  /** How many calls of this tool may run at once; 1 means serial. */
  readonly maxParallelism: number;
  /** What the output mostly is. */
  readonly outputKind: ToolOutputKind;
}

/** The conservative default: nothing is assumed safe, parallelism 1, text output. */
export const DEFAULT_TOOL_CAPABILITIES: ToolCapabilities = Object.freeze({
  readOnly: false,
  idempotent: false,
  resumable: false,
  cancellationSafe: false,
  supportsPagination: false,
  maxParallelism: 1,
  outputKind: 'text',
});

/** Capabilities for a read-only, idempotent, cancellation-safe call that may fan out. */
export const READ_ONLY_TOOL_CAPABILITIES: ToolCapabilities = Object.freeze({
  readOnly: true,
  idempotent: true,
  resumable: false,
  cancellationSafe: true,
  supportsPagination: false,
  maxParallelism: 16,
  outputKind: 'text',
});

/** Fills the fields a tool did not declare with {@link DEFAULT_TOOL_CAPABILITIES}. */
export function resolveToolCapabilities(partial: Partial<ToolCapabilities> | undefined): ToolCapabilities {
  if (partial === undefined) return DEFAULT_TOOL_CAPABILITIES;
  return { ...DEFAULT_TOOL_CAPABILITIES, ...partial };
}

/**
 * True when a group of calls may run concurrently: every call is read-only, idempotent,
 * cancellation-safe and allows parallelism above 1.
 */
export function canRunInParallel(group: readonly ToolCapabilities[]): boolean {
  return group.length > 0 && group.every((c) => c.readOnly && c.idempotent && c.cancellationSafe && c.maxParallelism > 1);
}
