import { randomUUID } from 'node:crypto';
import { mkdir, open, readFile, rename, stat, unlink } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';

/** Default lifetime of a lease that is not renewed (a crashed holder's lease expires after it). */
export const DEFAULT_LEASE_TTL_MS = 15_000;

/** What a lease file holds. */
export interface LeaseRecord {
  /** Id of the holding server process (random per process). */
  readonly owner: string;
  /** Host name and pid of the holder, for operators. */
  readonly host: string;
  readonly pid: number;
  /** Wall-clock time after which any process may take the lease over. */
  readonly expiresAtMs: number;
  /** Base URL where the holder serves the API (see {@link SessionLeases.advertise}), when it named one. */
  readonly endpoint?: string;
}

/** Outcome of {@link SessionLeases.acquire}. */
export type LeaseAttempt = { readonly acquired: true } | { readonly acquired: false; readonly holder: LeaseRecord };

/**
 * The locking rule of the server, as an interface: at most one server process runs a session at
 * a time. A process acquires the session's lease before it resumes the session from the store,
 * renews it while the session is live, and releases it after the last save; another process
 * that finds the lease held refuses with SESSION_LEASED. Leases must live on the same shared
 * medium as the session store.
 */
export interface SessionLeases {
  /** Id of this process as it appears in {@link LeaseRecord.owner}. */
  readonly owner: string;
  /** Takes the lease of `sessionId` if it is free or expired (not re-entrant: a held lease is refused even to its holder). */
  acquire(sessionId: string): Promise<LeaseAttempt>;
  /** Extends a lease this owner holds; false when it was lost (expired and taken over). */
  renew(sessionId: string): Promise<boolean>;
  /** Gives the lease back (no-op when this owner does not hold it). */
  release(sessionId: string): Promise<void>;
  /**
   * Names the base URL where this process serves the API; the leases it takes from then on carry
   * it, so another process can forward what only the holder can do (answering a confirmation).
   * Optional: leases without it make other processes answer SESSION_LEASED instead.
   */
  advertise?(endpoint: string): void;
}

/** Options of {@link FileSessionLeases}. */
export interface FileSessionLeasesOptions {
  /** Lifetime of an unrenewed lease. Default {@link DEFAULT_LEASE_TTL_MS}. */
  readonly ttlMs?: number;
  /** Clock, for tests. Default `Date.now`. */
  readonly now?: () => number;
}

// A takeover marker older than this belongs to a process that died mid-takeover.
const STALE_TAKEOVER_MS = 10_000;

/**
 * Leases as files in one directory shared by every server process (beside a FileSessionStore):
 * `<id>.lease` is created with O_EXCL, so exactly one process wins a free lease. An expired
 * lease is taken over under a `<id>.takeover` marker, itself created with O_EXCL, so two
 * processes never both replace the same expired lease. Renewal rewrites the file through a
 * temp file and rename after checking that this process still holds it.
 */
export class FileSessionLeases implements SessionLeases {
  readonly owner = randomUUID();
  readonly #dir: string;
  readonly #ttlMs: number;
  readonly #now: () => number;
  #ready: Promise<void> | null = null;
  #endpoint: string | null = null;

  constructor(dir: string, options: FileSessionLeasesOptions = {}) {
    this.#dir = dir;
    this.#ttlMs = options.ttlMs ?? DEFAULT_LEASE_TTL_MS;
    this.#now = options.now ?? Date.now;
  }

  /** How often a holder should renew: a third of the lifetime. */
  get renewIntervalMs(): number {
    return Math.max(50, Math.floor(this.#ttlMs / 3));
  }

  advertise(endpoint: string): void {
    this.#endpoint = endpoint;
  }

  async acquire(sessionId: string): Promise<LeaseAttempt> {
    await this.#ensureDir();
    const path = this.#path(sessionId);
    if (await this.#create(path)) return { acquired: true };
    const current = await this.#read(path);
    if (current === null) return (await this.#create(path)) ? { acquired: true } : this.#heldBy(path);
    // Not re-entrant, even for this owner: two users of one process must not share a lease that
    // the first to finish would delete under the other.
    if (current.expiresAtMs > this.#now()) return { acquired: false, holder: current };
    return this.#takeOver(sessionId, current);
  }

  async renew(sessionId: string): Promise<boolean> {
    const path = this.#path(sessionId);
    const current = await this.#read(path);
    if (current?.owner !== this.owner) return false;
    const temp = join(this.#dir, `.${encodeURIComponent(sessionId)}.${randomUUID()}.tmp`);
    const handle = await open(temp, 'wx', 0o600);
    try {
      await handle.writeFile(JSON.stringify(this.#record()));
    } finally {
      await handle.close();
    }
    await rename(temp, path);
    return true;
  }

  async release(sessionId: string): Promise<void> {
    const path = this.#path(sessionId);
    const current = await this.#read(path);
    if (current?.owner === this.owner) await unlink(path).catch(ignoreMissing);
  }

  async #takeOver(sessionId: string, expired: LeaseRecord): Promise<LeaseAttempt> {
    const path = this.#path(sessionId);
    const marker = `${path}.takeover`;
    try {
      await (await open(marker, 'wx', 0o600)).close();
    } catch (error) {
      if (!isCode(error, 'EEXIST')) throw error;
      const info = await stat(marker).catch(() => null);
      if (info !== null && this.#now() - info.mtimeMs > STALE_TAKEOVER_MS) await unlink(marker).catch(ignoreMissing);
      return { acquired: false, holder: expired };
    }
    try {
      const again = await this.#read(path);
      // Replace only the lease we saw expire: a fresh lease written meanwhile stands.
      if (again !== null && (again.owner !== expired.owner || again.expiresAtMs !== expired.expiresAtMs)) return { acquired: false, holder: again };
      await unlink(path).catch(ignoreMissing);
      return (await this.#create(path)) ? { acquired: true } : this.#heldBy(path);
    } finally {
      await unlink(marker).catch(ignoreMissing);
    }
  }

  async #heldBy(path: string): Promise<LeaseAttempt> {
    const holder = (await this.#read(path)) ?? { owner: 'unknown', host: 'unknown', pid: 0, expiresAtMs: this.#now() + this.#ttlMs };
    return { acquired: false, holder };
  }

  async #create(path: string): Promise<boolean> {
    try {
      const handle = await open(path, 'wx', 0o600);
      try {
        await handle.writeFile(JSON.stringify(this.#record()));
      } finally {
        await handle.close();
      }
      return true;
    } catch (error) {
      if (isCode(error, 'EEXIST')) return false;
      throw error;
    }
  }

  async #read(path: string): Promise<LeaseRecord | null> {
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      if (isCode(error, 'ENOENT')) return null;
      throw error;
    }
    try {
      const value = JSON.parse(text) as Partial<LeaseRecord>;
      if (typeof value.owner === 'string' && typeof value.expiresAtMs === 'number') {
        return { owner: value.owner, host: String(value.host ?? ''), pid: Number(value.pid ?? 0), expiresAtMs: value.expiresAtMs, ...(typeof value.endpoint === 'string' ? { endpoint: value.endpoint } : {}) };
      }
    } catch {
      // A torn or foreign file: treated as an expired lease of nobody, so it can be taken over.
    }
    return { owner: 'corrupt', host: '', pid: 0, expiresAtMs: 0 };
  }

  #record(): LeaseRecord {
    return { owner: this.owner, host: hostname(), pid: process.pid, expiresAtMs: this.#now() + this.#ttlMs, ...(this.#endpoint === null ? {} : { endpoint: this.#endpoint }) };
  }

  #path(sessionId: string): string {
    return join(this.#dir, `${encodeURIComponent(sessionId)}.lease`);
  }

  #ensureDir(): Promise<void> {
    this.#ready ??= mkdir(this.#dir, { recursive: true, mode: 0o700 }).then(() => undefined);
    return this.#ready;
  }
}

function isCode(error: unknown, code: string): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === code;
}

function ignoreMissing(error: unknown): void {
  if (!isCode(error, 'ENOENT')) throw error;
}
