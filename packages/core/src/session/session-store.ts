import { CodeError } from '../errors/code-error.js';
import type { SessionSnapshotV1 } from './session-snapshot.js';

/** What a store guarantees; hosts and the session read it, stores declare it honestly. */
export interface SessionStoreCapabilities {
  /** A save publishes the whole snapshot or nothing: a crash never leaves a torn or mixed document. */
  readonly atomicSessionSnapshots: boolean;
  /** `loadSync` is available (needed by the synchronous `agent.resumeSession()`). */
  readonly synchronousLoad: boolean;
  /** Snapshots survive the process (file, object storage). */
  readonly durable: boolean;
}

/** One session a store holds. */
export interface SessionStoreEntry {
  readonly sessionId: string;
  /** When its current generation was published (ms since the epoch). */
  readonly updatedAtMs: number;
}

/**
 * Where sessions are persisted: one document per session id holding its latest
 * {@link SessionSnapshotV1} generation. Implementations: `MemorySessionStore` (core),
 * `FileSessionStore` (local), `S3SessionStore`. Check a new store with the conformance suite
 * `describeSessionStoreContract` (or `sessionStoreContract`) from `@a3s-lab/code-core/testing`.
 */
export interface SessionStore {
  /** Name used in errors (`file:/var/sessions`). */
  readonly name: string;
  readonly capabilities: SessionStoreCapabilities;
  /** Publishes one generation. Bad ids are refused with SESSION_ERROR before anything is written. */
  save(snapshot: SessionSnapshotV1): Promise<void>;
  /** The latest generation, `null` when there is none. Unknown schemas and corrupted documents throw SERIALIZATION_ERROR. */
  load(sessionId: string): Promise<SessionSnapshotV1 | null>;
  /** Synchronous {@link load}, when `capabilities.synchronousLoad`. */
  loadSync?(sessionId: string): SessionSnapshotV1 | null;
  /** Removes a session; `false` when there was none. */
  delete(sessionId: string): Promise<boolean>;
  /** Every session held, ordered by session id. */
  list(): Promise<SessionStoreEntry[]>;
}

const SESSION_ID = /^[A-Za-z0-9._:@-]{1,128}$/;

/**
 * Checks a session id used as a store key: 1-128 letters, digits or `. _ : @ -`, and not `.` or
 * `..`. Throws SESSION_ERROR naming the store otherwise (so no id can name a path).
 */
export function validateSessionId(sessionId: unknown, store: string): string {
  if (typeof sessionId !== 'string' || !SESSION_ID.test(sessionId) || sessionId === '.' || sessionId === '..') {
    throw new CodeError('SESSION_ERROR', `session id ${JSON.stringify(typeof sessionId === 'string' ? sessionId.slice(0, 140) : String(sessionId))} is not valid for store '${store}': use 1-128 letters, digits or . _ : @ - (not '.' or '..')`, {
      details: { store, field: 'sessionId' },
    });
  }
  return sessionId;
}

/** True when `value` looks like a {@link SessionStore} (used to validate the `sessionStore` option). */
export function isSessionStore(value: unknown): value is SessionStore {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v['save'] === 'function' && typeof v['load'] === 'function' && typeof v['delete'] === 'function' && typeof v['list'] === 'function' && typeof v['name'] === 'string' && typeof v['capabilities'] === 'object' && v['capabilities'] !== null;
}
