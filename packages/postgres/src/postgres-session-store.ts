import { CodeError, HostFailure, parseSessionSnapshotText, serializeSessionSnapshot, validateSessionId } from '@a3s-lab/code-core';
import type { SessionSnapshotV1, SessionStore, SessionStoreCapabilities, SessionStoreEntry } from '@a3s-lab/code-core';

import { openDatabase } from './database.js';
import type { Database, DatabaseOptions } from './database.js';
import { migrate } from './migrations.js';
import { databaseName } from './database-name.js';
import { prepared } from './prepared-statements.js';

// The store's hot statements, prepared (parsed and planned once per connection by `pg`).
const LOAD_SQL = prepared('SELECT document, revision::text AS revision FROM a3s_sessions WHERE session_id = $1');
const UPDATE_SQL = prepared(`UPDATE a3s_sessions SET document = $2, generation = $3, labels = $4::jsonb, revision = revision + 1, updated_at = now()
                WHERE session_id = $1 AND revision = $5::bigint RETURNING revision::text AS revision`);
const INSERT_SQL = prepared(`INSERT INTO a3s_sessions (session_id, document, generation, labels) VALUES ($1, $2, $3, $4::jsonb)
               ON CONFLICT (session_id) DO NOTHING RETURNING revision::text AS revision`);

/** Options of {@link PostgresSessionStore}: where the database is (see `openDatabase`). */
export type PostgresSessionStoreOptions = DatabaseOptions;

/** One session of a {@link PostgresSessionStore.listPage} page. */
export interface PostgresSessionEntry extends SessionStoreEntry {
  /** The snapshot's labels (`owner` among them when the host set one). */
  readonly labels: Readonly<Record<string, string>>;
  /** The snapshot's generation. */
  readonly generation: number;
}

/** What {@link PostgresSessionStore.listPage} selects. */
export interface PostgresSessionQuery {
  /** Only sessions whose `owner` label is this value. */
  readonly owner?: string;
  /** Only sessions carrying every one of these labels with these values. */
  readonly labels?: Readonly<Record<string, string>>;
  /** Page size, 1-1000 (default 100). */
  readonly limit?: number;
  /** The `nextCursor` of the previous page. */
  readonly cursor?: string;
}

/** One page of sessions, ordered by session id. */
export interface PostgresSessionPage {
  readonly entries: PostgresSessionEntry[];
  /** Pass as `cursor` for the next page; `null` on the last page. */
  readonly nextCursor: string | null;
}

interface SessionRow {
  readonly session_id: string;
  readonly updated_at_ms: number | string;
  readonly labels: Record<string, string> | string;
  readonly generation: number | string | null;
}

/**
 * A {@link SessionStore} keeping one row per session in PostgreSQL (a server through `pg`, or an
 * embedded PGlite): table `a3s_sessions`, created and migrated by the store on first use
 * (versioned migrations under an advisory lock, safe with several processes starting at once).
 * A save is one statement, so it publishes a whole generation or nothing.
 *
 * Generations are conditional: the store remembers the row revision of the generation it last
 * loaded or saved for each session, and a save updates the row only at that revision (inserts
 * only when there is none, for a session it has never seen). Two hosts saving the same session
 * never overwrite each other silently: the loser's save fails with a `Conflict` HostFailure
 * (`details.reason: 'Conflict'`), writes nothing, and can `load()` the winner's generation. Saves
 * of one session through one store are serialised.
 *
 * Sessions can be listed by owner (the `owner` label) or any labels, a page at a time
 * ({@link listPage}).
 *
 * ```ts
 * const store = new PostgresSessionStore({ connectionString: process.env.DATABASE_URL });
 * const session = await agent.sessionAsync('/work/repo', { sessionStore: store, autoSave: true });
 * ```
 */
export class PostgresSessionStore implements SessionStore {
  readonly name: string;
  readonly capabilities: SessionStoreCapabilities = Object.freeze({ atomicSessionSnapshots: true, synchronousLoad: false, durable: true });
  readonly #options: PostgresSessionStoreOptions;
  #db: Promise<Database> | undefined;
  #closed = false;
  /** Row revision of the generation this store last loaded or published, per session (`null`: known absent). */
  readonly #revisions = new Map<string, string | null>();
  readonly #queues = new Map<string, Promise<void>>();

  constructor(options: PostgresSessionStoreOptions) {
    if (typeof options !== 'object' || options === null) throw new CodeError('CONFIG_ERROR', 'PostgresSessionStore needs options', { details: { field: 'options' } });
    this.#options = options;
    this.name = databaseName(options);
  }

  /** Opens the database and applies pending migrations (done by the first call otherwise). */
  async ready(): Promise<void> {
    await this.#database();
  }

  async save(snapshot: SessionSnapshotV1): Promise<void> {
    const id = validateSessionId(snapshot.sessionId, this.name);
    const text = serializeSessionSnapshot(snapshot);
    const previous = this.#queues.get(id) ?? Promise.resolve();
    const run = previous.then(() => this.#publish(id, text, snapshot));
    const tail = run.then(
      () => undefined,
      () => undefined,
    );
    this.#queues.set(id, tail);
    void tail.then(() => {
      if (this.#queues.get(id) === tail) this.#queues.delete(id);
    });
    await run;
  }

  async load(sessionId: string): Promise<SessionSnapshotV1 | null> {
    const id = validateSessionId(sessionId, this.name);
    const db = await this.#database();
    const result = await this.#run('load', id, () => db.query<{ document: string; revision: string }>(LOAD_SQL, [id]));
    const row = result.rows[0];
    if (row === undefined) {
      this.#revisions.set(id, null);
      return null;
    }
    const snapshot = parseSessionSnapshotText(row.document, { store: this.name, sessionId: id });
    this.#revisions.set(id, row.revision);
    return snapshot;
  }

  /**
   * The snapshot of a session row the caller read in a statement of its own (a fleet worker reads
   * it with its claim: one round trip less), remembered as {@link load} would (the next save
   * updates the row at that revision). `row` is `null` when the session is not stored.
   * @internal
   */
  adopt(sessionId: string, row: { readonly document: string; readonly revision: string } | null): SessionSnapshotV1 | null {
    const id = validateSessionId(sessionId, this.name);
    if (row === null) {
      this.#revisions.set(id, null);
      return null;
    }
    const snapshot = parseSessionSnapshotText(row.document, { store: this.name, sessionId: id });
    this.#revisions.set(id, row.revision);
    return snapshot;
  }

  /**
   * What a save of `snapshot` writes, for a caller that runs the conditional UPDATE of the session
   * row in a statement of its own (a fleet run's end: the save and the end commit together), with
   * the revision this store last saw: `null` when it has none (a save would insert). Pass the
   * revision the statement returned to {@link adoptSaved}, or take {@link conflict} when it updated
   * nothing.
   * @internal
   */
  saveParams(snapshot: SessionSnapshotV1): { readonly id: string; readonly text: string; readonly generation: number; readonly labels: string; readonly revision: string } | null {
    const id = validateSessionId(snapshot.sessionId, this.name);
    const revision = this.#revisions.get(id);
    if (typeof revision !== 'string') return null;
    return { id, text: serializeSessionSnapshot(snapshot), generation: snapshot.generation, labels: JSON.stringify(snapshot.labels), revision };
  }

  /** The row revision a statement of the caller's wrote for session `id` (see {@link saveParams}). @internal */
  adoptSaved(id: string, revision: string): void {
    this.#revisions.set(id, revision);
  }

  /** The `Conflict` failure of a save of `id` that found the row at another revision than this store saw. @internal */
  conflict(id: string): HostFailure {
    const known = this.#revisions.get(id);
    return new HostFailure('Conflict', `session '${id}' in store '${this.name}' was saved by another host since this one ${typeof known === 'string' ? 'loaded it' : 'created it'}: nothing was written; load it again and retry`, {
      path: id,
      details: { store: this.name, sessionId: id, expected: typeof known === 'string' ? known : null },
    });
  }

  async delete(sessionId: string): Promise<boolean> {
    const id = validateSessionId(sessionId, this.name);
    const db = await this.#database();
    const result = await this.#run('delete', id, () => db.query('DELETE FROM a3s_sessions WHERE session_id = $1 RETURNING 1', [id]));
    this.#revisions.set(id, null);
    return result.rows.length > 0;
  }

  async list(): Promise<SessionStoreEntry[]> {
    const entries: SessionStoreEntry[] = [];
    let cursor: string | null = null;
    do {
      const page: PostgresSessionPage = await this.listPage({ limit: 1000, ...(cursor === null ? {} : { cursor }) });
      for (const entry of page.entries) entries.push({ sessionId: entry.sessionId, updatedAtMs: entry.updatedAtMs });
      cursor = page.nextCursor;
    } while (cursor !== null);
    return entries;
  }

  /**
   * One page of sessions ordered by id, optionally only those of one `owner` (label) or
   * carrying given labels. Pages are keyset pages: sessions saved meanwhile never shift them.
   *
   * @throws CodeError SESSION_ERROR for a bad limit, cursor, owner or labels.
   */
  async listPage(query: PostgresSessionQuery = {}): Promise<PostgresSessionPage> {
    const limit = query.limit ?? 100;
    if (!Number.isSafeInteger(limit) || limit < 1 || limit > 1000) throw invalid('limit', 'limit must be an integer from 1 to 1000');
    if (query.cursor !== undefined) validateSessionId(query.cursor, this.name);
    const labels: Record<string, string> = { ...checkLabels(query.labels) };
    if (query.owner !== undefined) {
      if (typeof query.owner !== 'string' || query.owner === '') throw invalid('owner', 'owner must be a non-empty string');
      if (labels['owner'] !== undefined && labels['owner'] !== query.owner) throw invalid('owner', 'owner and labels.owner disagree');
      labels['owner'] = query.owner;
    }
    const db = await this.#database();
    const result = await this.#run('list', null, () =>
      db.query<SessionRow>(
        `SELECT session_id, floor(extract(epoch FROM updated_at) * 1000)::float8 AS updated_at_ms, labels, generation::float8 AS generation
           FROM a3s_sessions
          WHERE ($1::text IS NULL OR session_id > $1::text) AND labels @> $2::jsonb
          ORDER BY session_id
          LIMIT $3`,
        [query.cursor ?? null, JSON.stringify(labels), limit + 1],
      ),
    );
    const rows = result.rows.slice(0, limit);
    const entries = rows.map((row) => ({
      sessionId: row.session_id,
      updatedAtMs: Number(row.updated_at_ms),
      labels: typeof row.labels === 'string' ? (JSON.parse(row.labels) as Record<string, string>) : row.labels,
      generation: Number(row.generation ?? 0),
    }));
    const last = entries[entries.length - 1];
    return { entries, nextCursor: result.rows.length > limit && last !== undefined ? last.sessionId : null };
  }

  /** Ends the pool or PGlite this store opened (never the host's). Idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const db = this.#db;
    if (db !== undefined) await (await db.catch(() => null))?.close();
  }

  async #publish(id: string, text: string, snapshot: SessionSnapshotV1): Promise<void> {
    const db = await this.#database();
    const known = this.#revisions.get(id);
    const params = [id, text, snapshot.generation, JSON.stringify(snapshot.labels)];
    const result =
      typeof known === 'string'
        ? await this.#run('save', id, () =>
            db.query<{ revision: string }>(UPDATE_SQL, [...params, known]),
          )
        : await this.#run('save', id, () =>
            db.query<{ revision: string }>(INSERT_SQL, params),
          );
    const row = result.rows[0];
    if (row === undefined) throw this.conflict(id);
    this.#revisions.set(id, row.revision);
  }

  #database(): Promise<Database> {
    if (this.#closed) return Promise.reject(new CodeError('SESSION_ERROR', `store '${this.name}' is closed`, { details: { store: this.name } }));
    this.#db ??= (async () => {
      const db = await openDatabase(this.#options);
      try {
        await this.#run('migrate', null, () => migrate(db));
      } catch (error) {
        await db.close();
        throw error;
      }
      return db;
    })();
    const opening = this.#db;
    opening.catch(() => {
      if (this.#db === opening) this.#db = undefined; // the next call tries again
    });
    return opening;
  }

  /** Runs a statement; a driver failure becomes a HostFailure `Unavailable` naming the store (never the credentials). */
  async #run<T>(op: string, id: string | null, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      if (CodeError.isInstance(error)) throw error;
      const message = error instanceof Error ? error.message : String(error);
      const sqlState = typeof (error as { code?: unknown }).code === 'string' ? (error as { code: string }).code : undefined;
      throw new HostFailure('Unavailable', `store '${this.name}': ${op}${id === null ? '' : ` of session '${id}'`} failed: ${message}`, {
        ...(id === null ? {} : { path: id }),
        details: { store: this.name, sessionId: id, op, ...(sqlState === undefined ? {} : { sqlState }) },
      });
    }
  }
}

function invalid(field: string, message: string): CodeError {
  return new CodeError('SESSION_ERROR', message, { details: { field } });
}

function checkLabels(labels: unknown): Readonly<Record<string, string>> {
  if (labels === undefined) return {};
  if (typeof labels !== 'object' || labels === null || Array.isArray(labels) || !Object.values(labels).every((value) => typeof value === 'string')) {
    throw invalid('labels', 'labels must be an object of strings');
  }
  return labels as Record<string, string>;
}
