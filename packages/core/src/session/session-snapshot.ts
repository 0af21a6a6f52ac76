import type { ArtifactStoreSnapshot } from '../artifacts/artifact-store.js';
import { ArtifactStore } from '../artifacts/artifact-store.js';
import type { PendingConfirmation } from '../confirmation/confirmation-manager.js';
import { CodeError } from '../errors/code-error.js';
import type { AgentEvent } from '../events/agent-event.js';
import { parseAgentEvent } from '../events/agent-event.js';
import type { LlmMessage } from '../llm/llm-client.js';
import { validateVerificationReport } from '../verification/verification-report.js';
import type { VerificationReportV1 } from '../verification/verification-report.js';
import { validateMessages } from './validate-messages.js';
import { isPlan } from '../planning/plan-item.js';
import type { PlanItem } from '../planning/plan-item.js';
import type { RunSnapshot } from './run-record.js';
import { SESSION_STATE_VERSION } from './session-state.js';

/** Schema name of a {@link SessionSnapshotV1} document. */
export const SESSION_SNAPSHOT_SCHEMA = 'a3s.session_snapshot.v1';

/** A subagent task as kept in a snapshot (filled once subagents run). */
export interface SubagentTaskSnapshot {
  readonly taskId: string;
  readonly agent: string;
  readonly description: string;
  readonly status: string;
  readonly [key: string]: unknown;
}

/**
 * One published generation of a session: everything needed to rebuild it in another process.
 * Stores save and load it whole; a crash leaves the previous or the next generation.
 */
export interface SessionSnapshotV1 {
  readonly schema: typeof SESSION_SNAPSHOT_SCHEMA;
  readonly version: 1;
  readonly sessionId: string;
  /** Increases by one with every save of the session. */
  readonly generation: number;
  readonly savedAtMs: number;
  /** Display form of the workspace root (a directory, or the backend's id such as `s3://...`). */
  readonly workspace: string;
  /** JSON-safe session options (backends, stores and the id left out). */
  readonly options: Readonly<Record<string, unknown>>;
  readonly systemPrompt: string;
  readonly conversation: readonly LlmMessage[];
  readonly runs: readonly RunSnapshot[];
  readonly artifacts: ArtifactStoreSnapshot;
  /** Events outside runs (host-direct calls, persistence), bounded. */
  readonly traces: readonly AgentEvent[];
  readonly verificationReports: readonly VerificationReportV1[];
  readonly subagentTasks: readonly SubagentTaskSnapshot[];
  /** Confirmations pending at save time; a resumed session reports them as expired. */
  readonly pendingConfirmations: readonly PendingConfirmation[];
  readonly labels: Readonly<Record<string, string>>;
  /** The session's plan (absent in documents written before planning existed). */
  readonly plan?: readonly PlanItem[];
  /** True when the host enabled `dynamic_workflow` (`registerDynamicWorkflowRuntime()`); absent in older documents. */
  readonly dynamicWorkflow?: boolean;
}

/** Where a document came from, for error messages. */
export interface SnapshotOrigin {
  readonly store: string;
  readonly sessionId: string;
}

/** Serialises a snapshot for a store (JSON text). */
export function serializeSessionSnapshot(snapshot: SessionSnapshotV1): string {
  return JSON.stringify(snapshot);
}

/** Parses a stored document (JSON text) into a validated snapshot; see {@link parseSessionSnapshot}. */
export function parseSessionSnapshotText(text: string, origin: SnapshotOrigin): SessionSnapshotV1 {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw corrupted(origin, `not valid JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  return parseSessionSnapshot(value, origin);
}

/**
 * Validates a stored document and returns it as a {@link SessionSnapshotV1}. Reads the current
 * schema and the legacy `SessionStateV1` (`session.state()` of earlier releases). An unknown
 * schema or version, a document of another session, or a corrupted one throws
 * SERIALIZATION_ERROR naming the store and the session id.
 */
export function parseSessionSnapshot(value: unknown, origin: SnapshotOrigin): SessionSnapshotV1 {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw corrupted(origin, 'the document is not an object');
  const doc = value as Record<string, unknown>;
  if (doc['schema'] === undefined && doc['version'] === SESSION_STATE_VERSION && 'history' in doc) return parseSessionSnapshot(upgradeLegacyState(doc), origin);
  if (doc['schema'] !== SESSION_SNAPSHOT_SCHEMA || doc['version'] !== 1) {
    throw new CodeError('SERIALIZATION_ERROR', `session '${origin.sessionId}' in store '${origin.store}' has an unsupported snapshot schema ${JSON.stringify(doc['schema'] ?? null)} version ${JSON.stringify(doc['version'] ?? null)} (this build reads ${SESSION_SNAPSHOT_SCHEMA} version 1)`, {
      details: { store: origin.store, sessionId: origin.sessionId, schema: doc['schema'] ?? null, version: doc['version'] ?? null },
    });
  }
  const need = (field: string, ok: boolean): void => {
    if (!ok) throw corrupted(origin, `field '${field}' is missing or malformed`);
  };
  need('sessionId', doc['sessionId'] === origin.sessionId);
  need('generation', Number.isSafeInteger(doc['generation']) && (doc['generation'] as number) >= 0);
  need('savedAtMs', Number.isSafeInteger(doc['savedAtMs']));
  need('workspace', typeof doc['workspace'] === 'string');
  need('options', isRecord(doc['options']));
  need('systemPrompt', typeof doc['systemPrompt'] === 'string');
  need('runs', Array.isArray(doc['runs']) && (doc['runs'] as unknown[]).every(isRunSnapshot));
  need('traces', Array.isArray(doc['traces']) && (doc['traces'] as unknown[]).every((e) => parseAgentEvent(e) !== null));
  need('subagentTasks', Array.isArray(doc['subagentTasks']) && (doc['subagentTasks'] as unknown[]).every(isRecord));
  need('pendingConfirmations', Array.isArray(doc['pendingConfirmations']) && (doc['pendingConfirmations'] as unknown[]).every((p) => isRecord(p) && typeof p['toolId'] === 'string' && typeof p['toolName'] === 'string'));
  need('labels', isRecord(doc['labels']) && Object.values(doc['labels']).every((v) => typeof v === 'string'));
  need('verificationReports', Array.isArray(doc['verificationReports']));
  need('plan', doc['plan'] === undefined || isPlan(doc['plan']));
  need('dynamicWorkflow', doc['dynamicWorkflow'] === undefined || typeof doc['dynamicWorkflow'] === 'boolean');
  try {
    validateMessages(doc['conversation'], 'conversation');
    (doc['verificationReports'] as unknown[]).forEach((r, i) => validateVerificationReport(r, `verificationReports[${i}]`));
    new ArtifactStore({ maxArtifacts: Number.MAX_SAFE_INTEGER, maxBytes: Number.MAX_SAFE_INTEGER }).restore(doc['artifacts'] as ArtifactStoreSnapshot);
  } catch (error) {
    throw corrupted(origin, error instanceof Error ? error.message : String(error));
  }
  return value as SessionSnapshotV1;
}

function upgradeLegacyState(doc: Record<string, unknown>): SessionSnapshotV1 {
  return {
    schema: SESSION_SNAPSHOT_SCHEMA,
    version: 1,
    sessionId: doc['sessionId'] as string,
    generation: 0,
    savedAtMs: 0,
    workspace: typeof doc['workspace'] === 'string' ? doc['workspace'] : '',
    options: (doc['options'] ?? {}) as Record<string, unknown>,
    systemPrompt: doc['systemPrompt'] as string,
    conversation: doc['history'] as LlmMessage[],
    runs: doc['runs'] as RunSnapshot[],
    artifacts: doc['artifacts'] as ArtifactStoreSnapshot,
    traces: [],
    verificationReports: [],
    subagentTasks: [],
    pendingConfirmations: (doc['pendingConfirmations'] === undefined ? [] : doc['pendingConfirmations']) as PendingConfirmation[],
    labels: {},
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Structural check of a run snapshot (record fields the runtime reads, events as v1 envelopes). */
export function isRunSnapshot(value: unknown): value is RunSnapshot {
  if (!isRecord(value) || !isRecord(value['record']) || !Array.isArray(value['events']) || !Number.isSafeInteger(value['firstSequence'])) return false;
  const r = value['record'];
  return (
    typeof r['id'] === 'string' &&
    typeof r['status'] === 'string' &&
    ['running', 'completed', 'failed', 'cancelled'].includes(r['status']) &&
    Number.isSafeInteger(r['lastSequence']) &&
    isRecord(r['usage']) &&
    value['events'].every((e) => parseAgentEvent(e) !== null)
  );
}

function corrupted(origin: SnapshotOrigin, why: string): CodeError {
  return new CodeError('SERIALIZATION_ERROR', `session '${origin.sessionId}' in store '${origin.store}' is corrupted: ${why}`, {
    details: { store: origin.store, sessionId: origin.sessionId, reason: why },
  });
}
