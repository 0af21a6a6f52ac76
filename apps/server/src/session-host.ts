import type { Agent, RunRecord, Session, SessionOptions, SessionStore } from '@a3s-lab/code';
import { ServerError } from './server-error.js';
import type { SessionLeases } from './session-lease.js';
import { answerPendingConfirmation, readPendingConfirmations } from './session-confirmations.js';
import type { ConfirmationAnswerBody, PendingConfirmation } from './session-confirmations.js';
import { SESSION_ID, newSessionId } from './session-id.js';
import { SessionLeasedError } from './session-leased-error.js';
import { sessionPolicyOptions } from './session-policy-options.js';
import { resolveWorkspace } from './workspace-roots.js';

export type { PendingConfirmation } from './session-confirmations.js';

/** What {@link SessionHost} needs. */
export interface SessionHostOptions {
  readonly agent: Agent;
  /** Where sessions live between requests (shared by every server process). */
  readonly store: SessionStore;
  /** The locking rule: one process runs a session at a time (see {@link SessionLeases}). */
  readonly leases: SessionLeases;
  /** How often a live session's lease is renewed. */
  readonly renewIntervalMs: number;
  /** Absolute directories a session's workspace must lie inside. */
  readonly workspaceRoots: readonly string[];
  /** Permission policy of every session (the server's, never a client's). */
  readonly permissionPolicy: NonNullable<SessionOptions['permissionPolicy']>;
  /** Confirmation policy of every session. */
  readonly confirmationPolicy: NonNullable<SessionOptions['confirmationPolicy']>;
  /** Keep an idle session live this long before saving it and releasing its lease. */
  readonly idleReleaseMs: number;
  /**
   * POSTs `body` to `path` on another server process (its advertised lease endpoint), with this
   * server's credentials: how an answer to a confirmation reaches the process running the
   * session. Without it such answers are SESSION_LEASED.
   */
  readonly forward?: (endpoint: string, path: string, body: unknown) => Promise<Response>;
}

interface LiveSession {
  readonly session: Session;
  /** Requests, runs and event streams currently using the session. */
  holds: number;
  renewTimer: NodeJS.Timeout;
  idleTimer: NodeJS.Timeout | null;
  /** Set while the session is being saved, closed and released. */
  closing: Promise<void> | null;
}

/** A live session held by one user of it; `release()` once (later calls do nothing). */
export interface SessionHandle {
  readonly session: Session;
  release(): void;
}


/**
 * Owns the live sessions of this server process. A session is live only while something uses
 * it (a request, a run, an event stream) plus `idleReleaseMs`: it is resumed from the store
 * after taking its lease, and saved, closed and released when idle, so the store is the only
 * state shared between processes. A request for a session whose lease another process holds
 * fails with SESSION_LEASED.
 */
export class SessionHost {
  readonly #options: SessionHostOptions;
  readonly #live = new Map<string, LiveSession>();
  readonly #opening = new Map<string, Promise<LiveSession>>();
  #closed = false;

  constructor(options: SessionHostOptions) {
    this.#options = options;
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

  /** Ids of the sessions live in this process. */
  liveSessionIds(): string[] {
    return [...this.#live.keys()];
  }

  /** Creates a session on `workspace` (checked against the roots), saves it and returns its id. */
  async create(workspace: string): Promise<{ id: string; workspace: string }> {
    this.#assertOpen();
    const root = await resolveWorkspace(workspace, this.#options.workspaceRoots);
    const id = newSessionId();
    await this.#acquire(id);
    let session: Session | undefined;
    try {
      session = await this.#options.agent.sessionAsync(root, { ...this.#sessionOptions(), sessionId: id });
      // Saved at once: the session exists in the store before anyone learns its id.
      await session.save();
    } catch (error) {
      await session?.closeAsync().catch(() => undefined);
      await this.#options.leases.release(id);
      throw error;
    }
    const live = this.#adopt(id, session);
    // Held by nobody: released now (or after idleReleaseMs) like any other idle session.
    live.holds += 1;
    this.#unhold(id, live);
    return { id, workspace: root };
  }

  /**
   * Runs `fn` with the live session `id` (resumed from the store under its lease when needed)
   * and releases it after, unless something else still holds it.
   */
  async use<T>(id: string, fn: (session: Session) => Promise<T>): Promise<T> {
    const handle = await this.open(id);
    try {
      return await fn(handle.session);
    } finally {
      handle.release();
    }
  }

  /**
   * Holds session `id` live (resumed under its lease when needed) until `release()` is called,
   * for work that outlives one call, such as an event stream.
   */
  async open(id: string): Promise<SessionHandle> {
    const live = await this.#hold(id);
    let released = false;
    return {
      session: live.session,
      release: () => {
        if (released) return;
        released = true;
        this.#unhold(id, live);
      },
    };
  }

  /**
   * Starts a run of `prompt` on session `id` and returns its record at once; the run goes on in
   * the background (the session stays live and leased until it ends). Its events are read with
   * `runEventPage` / the SSE route; confirmations are answered through `use()`. `traceparent`
   * (W3C) makes the run's OpenTelemetry spans children of the caller's span.
   */
  async startRun(id: string, prompt: string, traceparent?: string): Promise<RunRecord> {
    const live = await this.#hold(id);
    try {
      const stream = await live.session.stream(traceparent === undefined ? prompt : { prompt, traceparent });
      const run = await live.session.currentRun();
      if (run === null) throw new ServerError('NOT_FOUND', 'the run ended before it could be reported');
      live.holds += 1;
      void (async () => {
        try {
          // The run's events are recorded in its run store; draining the stream drives the run.
          // A confirmation asked or answered is saved at once: every process reads the session's
          // pending confirmations from the store, not only the one running it.
          for await (const event of stream) {
            if (event.type === 'confirmation_required' || event.type === 'confirmation_received' || event.type === 'confirmation_timeout') void live.session.save().catch(() => undefined);
          }
        } catch {
          // The run's failure is in its record (status failed, error); nothing else to do here.
        } finally {
          this.#unhold(id, live);
        }
      })();
      return run;
    } finally {
      this.#unhold(id, live);
    }
  }

  /**
   * The pending confirmations of session `id`, the same for every client and every process: from
   * the live session when this process can hold it, else from the store (see
   * {@link readPendingConfirmations}).
   */
  pendingConfirmations(id: string): Promise<{ confirmations: PendingConfirmation[]; source: 'live' | 'store' }> {
    return readPendingConfirmations(id, (fn) => this.use(id, fn), this.#options.store);
  }

  /**
   * Answers pending confirmation `toolId` (a confirmation id or tool id) of session `id`, wherever
   * the session runs: here, or forwarded to the process holding its lease (see
   * {@link answerPendingConfirmation}; `forwarded` marks a request that was forwarded already).
   * False when the session does not wait for it (answered, expired, unknown).
   */
  answerConfirmation(id: string, toolId: string, answer: ConfirmationAnswerBody, forwarded: boolean): Promise<boolean> {
    return answerPendingConfirmation(id, toolId, answer, (fn) => this.use(id, fn), forwarded ? undefined : this.#options.forward);
  }

  /**
   * Closes session `id`: cancels its run, saves it and releases its lease if it is live here;
   * with `remove`, deletes it from the store too. False when the store has no such session;
   * SESSION_LEASED when another process is running it.
   */
  async close(id: string, options: { readonly remove?: boolean } = {}): Promise<boolean> {
    this.#assertOpen();
    if (!SESSION_ID.test(id)) return false;
    const live = this.#live.get(id);
    if (live !== undefined) {
      await live.session.cancelAsync();
      await this.#release(id, live);
    }
    // Under the lease, so a process running the session is not pulled from under it.
    await this.#acquire(id);
    try {
      if ((await this.#options.store.load(id)) === null) return false;
      if (options.remove === true) await this.#options.store.delete(id);
      return true;
    } finally {
      await this.#options.leases.release(id);
    }
  }

  /** Stops accepting work, cancels runs, saves and releases every live session. */
  async closeAll(): Promise<void> {
    this.#closed = true;
    await Promise.allSettled([...this.#opening.values()]);
    await Promise.allSettled(
      [...this.#live.entries()].map(async ([id, live]) => {
        await live.session.cancelAsync();
        await this.#release(id, live);
      }),
    );
  }

  async #hold(id: string): Promise<LiveSession> {
    this.#assertOpen();
    if (!SESSION_ID.test(id)) throw new ServerError('NOT_FOUND', `no session '${id}'`, { sessionId: id });
    for (;;) {
      const live = this.#live.get(id);
      if (live !== undefined && live.closing === null) {
        live.holds += 1;
        if (live.idleTimer !== null) clearTimeout(live.idleTimer);
        live.idleTimer = null;
        return live;
      }
      if (live?.closing) {
        await live.closing;
        continue;
      }
      const opening = this.#opening.get(id) ?? this.#open(id);
      await opening;
    }
  }

  #open(id: string): Promise<LiveSession> {
    const opening = (async () => {
      await this.#acquire(id);
      try {
        if ((await this.#options.store.load(id)) === null) throw new ServerError('NOT_FOUND', `no session '${id}'`, { sessionId: id });
        const session = await this.#options.agent.resumeSessionAsync(id, this.#sessionOptions());
        try {
          // The saved workspace must still be inside the roots this server is configured with.
          await resolveWorkspace(session.workspace, this.#options.workspaceRoots);
        } catch (error) {
          await session.closeAsync();
          throw error;
        }
        return this.#adopt(id, session);
      } catch (error) {
        await this.#options.leases.release(id);
        throw error;
      }
    })();
    this.#opening.set(id, opening);
    void opening.then(
      () => this.#opening.delete(id),
      () => this.#opening.delete(id),
    );
    return opening;
  }

  #adopt(id: string, session: Session): LiveSession {
    const renewTimer = setInterval(() => {
      void this.#options.leases.renew(id).then(
        async (held) => {
          // Lost the lease (this process stalled past its lifetime): stop running here.
          if (!held) await session.cancelAsync();
        },
        () => undefined,
      );
    }, this.#options.renewIntervalMs);
    renewTimer.unref();
    const live: LiveSession = { session, holds: 0, renewTimer, idleTimer: null, closing: null };
    this.#live.set(id, live);
    return live;
  }

  #unhold(id: string, live: LiveSession): void {
    live.holds -= 1;
    if (live.holds > 0 || live.closing !== null) return;
    if (this.#options.idleReleaseMs <= 0) {
      void this.#release(id, live).catch(ignoreReleaseFailure);
      return;
    }
    live.idleTimer = setTimeout(() => void this.#release(id, live).catch(ignoreReleaseFailure), this.#options.idleReleaseMs);
    live.idleTimer.unref();
  }

  #release(id: string, live: LiveSession): Promise<void> {
    if (live.closing !== null) return live.closing;
    if (live.idleTimer !== null) clearTimeout(live.idleTimer);
    clearInterval(live.renewTimer);
    live.closing = (async () => {
      try {
        // closeAsync waits for autoSave's pending writes: the store has the final state before
        // the lease is given back, so the next holder resumes exactly this state.
        await live.session.closeAsync();
      } finally {
        await this.#options.leases.release(id).catch(() => undefined);
        // Only now: a request arriving meanwhile waits for this release instead of finding the
        // lease still held (by this very process) and failing with SESSION_LEASED.
        this.#live.delete(id);
      }
    })();
    return live.closing;
  }

  async #acquire(id: string): Promise<void> {
    const attempt = await this.#options.leases.acquire(id);
    if (!attempt.acquired) throw new SessionLeasedError(id, attempt.holder);
  }

  #sessionOptions(): SessionOptions {
    return {
      sessionStore: this.#options.store,
      autoSave: true,
      ...sessionPolicyOptions(this.#options),
    };
  }

  #assertOpen(): void {
    if (this.#closed) throw new ServerError('SERVER_CLOSING', 'the server is shutting down');
  }
}


// A failed close (its save failed) already emitted persistence_failed and the lease was given
// back in the finally: nothing is left to undo, and a background release must not crash the server.
function ignoreReleaseFailure(): void {}
