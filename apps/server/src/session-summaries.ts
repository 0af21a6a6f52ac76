import type { SessionStore } from '@a3s-lab/code';

/** One session as `GET /api/sessions` lists it (what the browser UI's session list shows). */
export interface SessionSummary {
  readonly id: string;
  readonly updatedAtMs: number;
  /** The session's workspace directory. */
  readonly workspace: string;
  /** Its first prompt (cut at 200 characters), or null before its first run. */
  readonly title: string | null;
  /** A run of it was running when it was last saved. */
  readonly running: boolean;
  /** That run's id (null when none ran). */
  readonly runningRunId: string | null;
}

const TITLE_CHARS = 200;

/**
 * Summaries of the sessions in a store, read from their saved snapshots (no lease taken, so
 * listing never competes with the process running a session). A snapshot is read again only when
 * its generation's `updatedAtMs` changed; sessions that vanished from the store are forgotten.
 */
export class SessionSummaries {
  readonly #store: SessionStore;
  readonly #cache = new Map<string, SessionSummary>();

  constructor(store: SessionStore) {
    this.#store = store;
  }

  /** Every session of the store, newest first. */
  async list(): Promise<SessionSummary[]> {
    const entries = await this.#store.list();
    const seen = new Set<string>();
    const summaries = await Promise.all(
      entries.map(async (entry): Promise<SessionSummary | null> => {
        seen.add(entry.sessionId);
        const cached = this.#cache.get(entry.sessionId);
        if (cached !== undefined && cached.updatedAtMs === entry.updatedAtMs) return cached;
        // Deleted between list() and load(), or unreadable: left out of this answer.
        const snapshot = await this.#store.load(entry.sessionId).catch(() => null);
        if (snapshot === null) return null;
        const prompt = snapshot.runs[0]?.record.prompt ?? null;
        const runningRunId = snapshot.runs.find((run) => run.record.status === 'running')?.record.id ?? null;
        const summary: SessionSummary = {
          id: entry.sessionId,
          updatedAtMs: entry.updatedAtMs,
          workspace: snapshot.workspace,
          title: prompt === null ? null : prompt.length > TITLE_CHARS ? `${prompt.slice(0, TITLE_CHARS - 1)}…` : prompt,
          running: runningRunId !== null,
          runningRunId,
        };
        this.#cache.set(entry.sessionId, summary);
        return summary;
      }),
    );
    for (const id of this.#cache.keys()) if (!seen.has(id)) this.#cache.delete(id);
    return summaries.filter((s): s is SessionSummary => s !== null).sort((a, b) => b.updatedAtMs - a.updatedAtMs);
  }
}
