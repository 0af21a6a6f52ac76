import type { ArtifactStoreSnapshot } from '../artifacts/artifact-store.js';
import type { PendingConfirmation } from '../confirmation/confirmation-manager.js';
import type { LlmMessage } from '../llm/llm-client.js';
import type { RunSnapshot } from './run-record.js';

/** Version of {@link SessionStateV1}. */
export const SESSION_STATE_VERSION = 1;

/**
 * All of a session's state in one plain-data structure: conversation, runs with their events,
 * artifacts, pending confirmations and options. Snapshots (`SessionSnapshotV1`) persist it
 * atomically; `AgentSession.restoreState` loads it back.
 */
export interface SessionStateV1 {
  readonly version: typeof SESSION_STATE_VERSION;
  readonly sessionId: string;
  readonly history: readonly LlmMessage[];
  readonly runs: readonly RunSnapshot[];
  readonly artifacts: ArtifactStoreSnapshot;
  readonly pendingConfirmations: readonly PendingConfirmation[];
  /** JSON-safe session options (backends and stores left out). */
  readonly options: Readonly<Record<string, unknown>>;
  readonly systemPrompt: string;
}
