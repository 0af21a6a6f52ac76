import { CodeError } from '@a3s-lab/code';
import type { Agent, AgentEvent, FleetPendingConfirmation, FleetRun, PostgresFleet, RunEventPage, Session, SessionOptions, SessionStore } from '@a3s-lab/code';
import { ServerError } from '../server-error.js';
import { SESSION_ID, newSessionId } from '../session-id.js';
import { sessionPolicyOptions } from '../session-policy-options.js';
import { SessionSummaries } from '../session-summaries.js';
import type { SessionSummary } from '../session-summaries.js';
import { resolveWorkspace } from '../workspace-roots.js';
import { fleetRunRecord } from './fleet-run-record.js';
import type { FleetRunRecord } from './fleet-run-record.js';

/** What {@link FleetHost} needs. */
export interface FleetHostOptions {
  readonly agent: Agent;
  /** The fleet runs are submitted to, observed, cancelled and confirmed through. */
  readonly fleet: PostgresFleet;
  /** The fleet's session store (PostgreSQL, the same database). */
  readonly store: SessionStore;
  /** Absolute directories a session's workspace must lie inside. */
  readonly workspaceRoots: readonly string[];
  /** Permission policy of every session (the server's; workers apply it too). */
  readonly permissionPolicy: NonNullable<SessionOptions['permissionPolicy']>;
  /** Confirmation policy of every session. */
  readonly confirmationPolicy: NonNullable<SessionOptions['confirmationPolicy']>;
}

/**
 * The web host of a stateless API process over a fleet: sessions live in the PostgreSQL store,
 * runs are fleet runs (`submit`), executed by whichever worker process claims them, read back
 * from the run journal's events, cancelled and confirmed through the database. No session is
 * live in this process and nothing is leased: every API process answers every request.
 */
export class FleetHost {
  readonly #options: FleetHostOptions;
  readonly #summaries: SessionSummaries;

  constructor(options: FleetHostOptions) {
    this.#options = options;
    this.#summaries = new SessionSummaries(options.store);
  }

  /** The fleet. */
  get fleet(): PostgresFleet {
    return this.#options.fleet;
  }

  /** The store sessions live in. */
  get store(): SessionStore {
    return this.#options.store;
  }

  /** The directories session workspaces must lie inside. */
  get workspaceRoots(): readonly string[] {
    return this.#options.workspaceRoots;
  }

  /** The agent's default model (`provider/model`), shown by the browser UI. */
  get defaultModel(): string {
    return this.#options.agent.config.defaultModel;
  }

  /** Session options of every session of this host (API processes create with them, workers resume with them). */
  sessionOptions(): SessionOptions {
    return sessionPolicyOptions(this.#options);
  }

  /** Creates a session on `workspace` (checked against the roots), saves it in the store and returns its id. */
  async create(workspace: string): Promise<{ id: string; workspace: string }> {
    const root = await resolveWorkspace(workspace, this.#options.workspaceRoots);
    const id = newSessionId();
    const session = await this.#options.agent.sessionAsync(root, { ...this.sessionOptions(), sessionStore: this.#options.store, autoSave: false, sessionId: id });
    try {
      await session.save();
    } finally {
      await session.closeAsync();
    }
    return { id, workspace: root };
  }

  /** Every session of the store, newest first; `running`, `runningRunId` and `updatedAtMs` take the fleet's runs into account. */
  async list(): Promise<SessionSummary[]> {
    const summaries = await this.#summaries.list();
    const listed = await Promise.all(
      summaries.map(async (summary) => {
        const runs = await this.#options.fleet.sessionRuns(summary.id);
        const active = runs.find((run) => run.status === 'queued' || run.status === 'running');
        // A run's changes count as the session's (a tab idle on it re-reads when this moves).
        const updatedAtMs = Math.max(summary.updatedAtMs, ...runs.map((run) => run.updatedAt.getTime()));
        return { ...summary, updatedAtMs, title: summary.title ?? runs[0]?.prompt.slice(0, 200) ?? null, running: active !== undefined, runningRunId: active?.runId ?? null };
      }),
    );
    return listed.sort((a, b) => b.updatedAtMs - a.updatedAtMs);
  }

  /** The saved session `id`: NOT_FOUND when the store has none. */
  async session(id: string): Promise<{ id: string; workspace: string; labels: Record<string, string> }> {
    if (!SESSION_ID.test(id)) throw new ServerError('NOT_FOUND', `no session '${id}'`, { sessionId: id });
    const snapshot = await this.#options.store.load(id);
    if (snapshot === null) throw new ServerError('NOT_FOUND', `no session '${id}'`, { sessionId: id });
    return { id, workspace: snapshot.workspace, labels: { ...snapshot.labels } };
  }

  /** The tool definitions the model sees in session `id` (the session resumed here for the read, not run). */
  async tools(id: string): Promise<ReturnType<Session['toolDefinitions']>> {
    await this.session(id);
    const session = await this.#options.agent.resumeSessionAsync(id, { ...this.sessionOptions(), sessionStore: this.#options.store, autoSave: false });
    try {
      return session.toolDefinitions();
    } finally {
      await session.closeAsync();
    }
  }

  /**
   * Artifact `uri` of session `id` as its last save holds it (a worker saves the session when a
   * run ends: the artifacts of finished runs); `null` when it has no such artifact.
   */
  async artifact(id: string, uri: string): Promise<ReturnType<Session['getArtifact']>> {
    await this.session(id);
    const session = await this.#options.agent.resumeSessionAsync(id, { ...this.sessionOptions(), sessionStore: this.#options.store, autoSave: false });
    try {
      return session.getArtifact(uri);
    } finally {
      await session.closeAsync();
    }
  }

  /**
   * Closes session `id`: cancels its queued or running run; with `remove`, deletes it from the
   * store too (SESSION_BUSY while the cancelled run has not ended yet). False when the store has
   * no such session.
   */
  async close(id: string, options: { readonly remove?: boolean } = {}): Promise<boolean> {
    if (!SESSION_ID.test(id) || (await this.#options.store.load(id)) === null) return false;
    const active = (await this.#options.fleet.sessionRuns(id)).filter((run) => run.status === 'queued' || run.status === 'running');
    for (const run of active) await this.#options.fleet.cancel(run.runId);
    if (options.remove === true) {
      const still = (await this.#options.fleet.sessionRuns(id)).find((run) => run.status === 'queued' || run.status === 'running');
      if (still !== undefined) throw new CodeError('SESSION_BUSY', `session '${id}' is still ending run '${still.runId}': delete it once the run is over`, { details: { sessionId: id, runId: still.runId } });
      await this.#options.store.delete(id);
    }
    return true;
  }

  /** The fleet runs of session `id`, oldest first. */
  async runs(id: string): Promise<FleetRunRecord[]> {
    await this.session(id);
    return (await this.#options.fleet.sessionRuns(id)).map((run) => fleetRunRecord(run));
  }

  /** Run `runId` of session `id`: NOT_FOUND unless it is a run of that session. */
  async run(id: string, runId: string): Promise<FleetRunRecord> {
    return fleetRunRecord(await this.fleetRun(id, runId));
  }

  /** The fleet's own view of run `runId` of session `id` (NOT_FOUND unless it is one of its runs). */
  async fleetRun(id: string, runId: string): Promise<FleetRun> {
    const run = await this.#options.fleet.run(runId);
    if (run === null || run.sessionId !== id) throw new ServerError('NOT_FOUND', `no run '${runId}' in session '${id}'`, { runId });
    return run;
  }

  /** Submits a run of `prompt` on session `id` (SESSION_BUSY while another is queued or running). */
  async startRun(id: string, prompt: string): Promise<FleetRunRecord> {
    const { workspace } = await this.session(id);
    // The saved workspace must still be inside the roots this server is configured with.
    await resolveWorkspace(workspace, this.#options.workspaceRoots);
    const { runId } = await this.#options.fleet.submit(id, prompt);
    return this.run(id, runId);
  }

  /** The run's recorded events after `afterSequence`, then the live ones, ending with the run (see `fleet.events`). */
  events(runId: string, afterSequence: number, signal?: AbortSignal): AsyncIterable<AgentEvent> {
    return this.#options.fleet.events(runId, signal === undefined ? { afterSequence } : { afterSequence, signal });
  }

  /** A page of run `runId`'s events as written so far (the journal's event table), as a single host's `runEventPage`. */
  async eventPage(id: string, runId: string, afterSequence: number | undefined, limit: number | undefined): Promise<RunEventPage> {
    await this.fleetRun(id, runId);
    const page = await this.#options.fleet.eventPage(runId, { ...(afterSequence === undefined ? {} : { afterSequence }), ...(limit === undefined ? {} : { limit }) });
    if (page === null) throw new ServerError('NOT_FOUND', `no run '${runId}'`, { runId });
    return page;
  }

  /** Cancels run `runId` of session `id` from this process; false when it is over. */
  async cancel(id: string, runId: string): Promise<boolean> {
    await this.run(id, runId);
    return this.#options.fleet.cancel(runId);
  }

  /** The confirmations the runs of session `id` wait for (durable: read from the database). */
  async pendingConfirmations(id: string): Promise<FleetPendingConfirmation[]> {
    await this.session(id);
    return (await this.#options.fleet.pendingConfirmations()).filter((p) => p.sessionId === id);
  }

  /** True when run `runId` waits for the confirmation of `toolId`. */
  async isPending(runId: string, toolId: string): Promise<boolean> {
    return (await this.#options.fleet.pendingConfirmations()).some((p) => p.runId === runId && p.toolId === toolId);
  }

  /**
   * Answers the pending confirmation of call `toolId` of session `id`, whichever worker runs it
   * (or the one that resumes it). False when no run of the session waits for it.
   */
  async answerConfirmation(id: string, toolId: string, answer: { readonly approved: boolean; readonly reason?: string }): Promise<boolean> {
    const pending = (await this.pendingConfirmations(id)).find((p) => p.toolId === toolId);
    if (pending === undefined) return false;
    return this.#options.fleet.confirm(pending.runId, toolId, answer.approved, answer.reason);
  }
}
