import type { AgentEvent, FleetRun, RunRecord } from '@a3s-lab/code';

/** Token usage of a fleet run, summed from the `turn_end` events read so far (the fleet records no totals). */
export interface FleetUsage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
}

/** A run before any turn ended. */
export function emptyFleetUsage(): FleetUsage {
  return { promptTokens: 0, completionTokens: 0, totalTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };
}

const tokens = (usage: Record<string, unknown>, key: string): number => {
  const value = usage[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
};

/** Adds the usage of `event` (a `turn_end`) to `usage`; other events leave it alone. */
export function addEventUsage(usage: FleetUsage, event: AgentEvent): void {
  if (event.type !== 'turn_end') return;
  const reported = event.payload['usage'];
  if (typeof reported !== 'object' || reported === null) return;
  const u = reported as Record<string, unknown>;
  usage.promptTokens += tokens(u, 'input_tokens');
  usage.completionTokens += tokens(u, 'output_tokens');
  usage.cacheReadTokens += tokens(u, 'cache_read_tokens');
  usage.cacheWriteTokens += tokens(u, 'cache_write_tokens');
  usage.totalTokens = usage.promptTokens + usage.completionTokens;
}

/** A fleet run as the API reports a run: the `RunRecord` fields, plus the fleet's own view of it. */
export type FleetRunRecord = RunRecord & {
  readonly fleet: { readonly status: FleetRun['status']; readonly attempts: number; readonly workerId: string | null; readonly reconciliation: FleetRun['reconciliation'] };
};

/**
 * `run` in the shape of a session's `RunRecord` (what the routes and the protocol encoders read):
 * queued and running runs are `running`; a run waiting for reconciliation is `failed` with code
 * `NEEDS_RECONCILIATION` (its stream ended; `fleet.status` tells the host it can still resume).
 */
export function fleetRunRecord(run: FleetRun, usage: FleetUsage = emptyFleetUsage(), lastSequence = 0): FleetRunRecord {
  const status = run.status === 'queued' || run.status === 'running' ? 'running' : run.status === 'needs_reconciliation' ? 'failed' : run.status;
  const error =
    run.status === 'needs_reconciliation'
      ? { code: 'NEEDS_RECONCILIATION', message: `the run stopped at '${run.reconciliation?.toolName ?? 'a tool'}' (${run.reconciliation?.toolId ?? 'unknown call'}), whose outcome is unknown: reconcile it` }
      : run.error;
  return {
    id: run.runId,
    sessionId: run.sessionId,
    status,
    kind: 'fleet',
    prompt: run.prompt,
    startedAtMs: run.createdAt.getTime(),
    endedAtMs: run.finishedAt === null ? null : run.finishedAt.getTime(),
    text: run.result?.text ?? null,
    error,
    usage: { ...usage },
    toolCallsCount: run.result?.toolCallsCount ?? 0,
    turns: run.result?.turns ?? 0,
    lastSequence,
    fleet: { status: run.status, attempts: run.attempts, workerId: run.workerId, reconciliation: run.reconciliation },
  };
}
