import { CodeError } from '../errors/code-error.js';
import { boundUtf8HeadTail, utf8ByteLength } from './utf8.js';

/** Default {@link ArtifactStoreLimits.maxArtifacts}. */
export const DEFAULT_MAX_ARTIFACTS = 256;
/** Default {@link ArtifactStoreLimits.maxBytes} (16 MiB). */
export const DEFAULT_MAX_ARTIFACT_BYTES = 16 * 1024 * 1024;

/** Retention limits of an {@link ArtifactStore}. */
export interface ArtifactStoreLimits {
  /** Most artifacts kept; the oldest is evicted first. Default 256. */
  readonly maxArtifacts?: number;
  /**
   * Most UTF-8 bytes kept across all artifacts; the oldest are evicted first. Default 16 MiB. An
   * output larger than this on its own is kept as a head+tail copy marked `truncated` (with its
   * `originalBytes`), and the model is told it got part of it.
   */
  readonly maxBytes?: number;
}

/** One stored artifact. */
export interface Artifact {
  /** `a3s://tool-output/<tool>/<id>`. */
  readonly uri: string;
  readonly id: string;
  /** Name of the tool whose output this is. */
  readonly tool: string;
  readonly content: string;
  /** IANA media type; default `text/plain`. */
  readonly mediaType: string;
  /** UTF-8 size of `content`. */
  readonly bytes: number;
  /** When it was stored, ms since the epoch. */
  readonly createdAtMs: number;
  /**
   * Set when the content is only part of the output (a head and a tail around an omission
   * marker) because the whole was larger than `artifactStoreLimits.maxBytes`.
   */
  readonly truncated?: true;
  /** With `truncated`: the UTF-8 size of the whole output. */
  readonly originalBytes?: number;
}

/** What {@link ArtifactStore.put} returns. */
export interface ArtifactRef {
  readonly uri: string;
  readonly id: string;
  readonly bytes: number;
  /** The content was cut to fit `maxBytes` (see {@link ArtifactStore.putBounded}). */
  readonly truncated?: true;
  /** With `truncated`: the UTF-8 size of the whole content. */
  readonly originalBytes?: number;
}

/** Plain-data form of a store, for session snapshots. */
export interface ArtifactStoreSnapshot {
  readonly version: 1;
  readonly artifacts: readonly Artifact[];
}

const URI_PREFIX = 'a3s://tool-output/';
const MAX_ID_LENGTH = 128;
const ID_PATTERN = /^[A-Za-z0-9_.:-]{1,128}$/;
const TOOL_PATTERN = /^[A-Za-z0-9_-]{1,128}$/;

function positiveInteger(value: unknown, field: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    throw new CodeError('SESSION_CONFIGURATION_ERROR', `artifactStoreLimits.${field} must be a positive integer, got ${String(value)}`, {
      details: { field: `artifactStoreLimits.${field}`, value },
    });
  }
  return value;
}

/**
 * Session artifacts: tool output too large to inline, kept for `session.getArtifact(uri)`.
 * Retention is FIFO by count AND bytes: storing a new artifact evicts the oldest ones until
 * both limits hold.
 *
 * Decision: an artifact larger than `maxBytes` on its own is REFUSED (`put` throws
 * `IO_ERROR` with `details.limit = 'maxBytes'`) rather than silently stored truncated, because
 * a caller that asked to keep "the full output" must learn that it was not kept. The kernel
 * catches this and stores a head+tail bounded copy that states what was omitted
 * ({@link ArtifactStore.putBounded}), marked `truncated` with its `originalBytes`.
 */
export class ArtifactStore {
  /** Effective max artifact count. */
  readonly maxArtifacts: number;
  /** Effective max total bytes. */
  readonly maxBytes: number;
  // Map iteration order is insertion order: the first entry is the oldest.
  readonly #artifacts = new Map<string, Artifact>();
  #totalBytes = 0;
  #counter = 0;
  readonly #prefix = Math.floor(Math.random() * 0x100000000).toString(36);

  constructor(limits: ArtifactStoreLimits = {}) {
    this.maxArtifacts = positiveInteger(limits.maxArtifacts, 'maxArtifacts', DEFAULT_MAX_ARTIFACTS);
    this.maxBytes = positiveInteger(limits.maxBytes, 'maxBytes', DEFAULT_MAX_ARTIFACT_BYTES);
  }

  /** Builds the URI of an artifact of `tool` with `id`. */
  static uriFor(tool: string, id: string): string {
    return `${URI_PREFIX}${tool}/${id}`;
  }

  /**
   * Stores `content` as an artifact of `tool`. `id` is generated unless given (the kernel
   * passes the tool call id); a taken id gets a numeric suffix. Throws IO_ERROR when the
   * content alone is larger than `maxBytes`, CONFIG_ERROR for a malformed tool name or id.
   */
  put(tool: string, content: string, options: { readonly mediaType?: string; readonly id?: string } = {}): ArtifactRef {
    return this.#put(tool, content, options, undefined);
  }

  /**
   * Like {@link put}, but content larger than `maxBytes` is stored as a head+tail copy that
   * states what it omitted, marked `truncated` with its `originalBytes` (in the artifact and the
   * returned ref), instead of being refused.
   */
  putBounded(tool: string, content: string, options: { readonly mediaType?: string; readonly id?: string } = {}): ArtifactRef {
    const bytes = utf8ByteLength(content);
    if (bytes <= this.maxBytes) return this.#put(tool, content, options, undefined);
    return this.#put(tool, boundUtf8HeadTail(content, this.maxBytes).text, options, bytes);
  }

  #put(tool: string, content: string, options: { readonly mediaType?: string; readonly id?: string }, originalBytes: number | undefined): ArtifactRef {
    if (!TOOL_PATTERN.test(tool)) throw new CodeError('CONFIG_ERROR', `invalid artifact tool name '${tool}'`, { details: { tool } });
    if (options.id !== undefined && !ID_PATTERN.test(options.id)) {
      throw new CodeError('CONFIG_ERROR', `invalid artifact id '${options.id}': use 1-128 letters, digits, '_', '.', ':' or '-'`, { details: { id: options.id } });
    }
    const bytes = utf8ByteLength(content);
    if (bytes > this.maxBytes) {
      throw new CodeError('IO_ERROR', `artifact of ${bytes} bytes exceeds the store limit of ${this.maxBytes} bytes`, {
        details: { limit: 'maxBytes', maxBytes: this.maxBytes, bytes, tool },
      });
    }
    const base = options.id ?? `${this.#prefix}${(this.#counter += 1).toString(36)}`;
    let id = base;
    let uri = ArtifactStore.uriFor(tool, id);
    for (let n = 2; this.#artifacts.has(uri); n += 1) {
      // The suffixed id must still be a valid id (at most 128 characters), or the snapshot
      // holding it could never be restored.
      const suffix = `-${n}`;
      id = `${base.slice(0, MAX_ID_LENGTH - suffix.length)}${suffix}`;
      uri = ArtifactStore.uriFor(tool, id);
    }
    const cut = originalBytes === undefined ? {} : { truncated: true as const, originalBytes };
    this.#insert({ uri, id, tool, content, mediaType: options.mediaType ?? 'text/plain', bytes, createdAtMs: Date.now(), ...cut });
    return { uri, id, bytes, ...cut };
  }

  /** The artifact at `uri`, or `null` (never stored, or evicted). */
  get(uri: string): Artifact | null {
    return this.#artifacts.get(uri) ?? null;
  }

  /** Stored artifacts, oldest first. */
  list(): Artifact[] {
    return [...this.#artifacts.values()];
  }

  /** Number of stored artifacts. */
  get size(): number {
    return this.#artifacts.size;
  }

  /** Total UTF-8 bytes stored. */
  get totalBytes(): number {
    return this.#totalBytes;
  }

  /** Plain-data copy for persistence. */
  snapshot(): ArtifactStoreSnapshot {
    return { version: 1, artifacts: this.list() };
  }

  /**
   * Replaces the content with a snapshot (the current limits apply: the oldest entries that do
   * not fit are evicted). A malformed snapshot throws SERIALIZATION_ERROR and changes nothing.
   */
  restore(snapshot: ArtifactStoreSnapshot): void {
    const entries = parseSnapshot(snapshot);
    this.#artifacts.clear();
    this.#totalBytes = 0;
    for (const entry of entries) {
      if (entry.bytes <= this.maxBytes) this.#insert(entry);
    }
  }

  #insert(artifact: Artifact): void {
    // A snapshot may list a URI twice: the later entry replaces the earlier one, bytes included.
    const replaced = this.#artifacts.get(artifact.uri);
    if (replaced !== undefined) {
      this.#artifacts.delete(artifact.uri);
      this.#totalBytes -= replaced.bytes;
    }
    this.#artifacts.set(artifact.uri, artifact);
    this.#totalBytes += artifact.bytes;
    for (const [uri, oldest] of this.#artifacts) {
      if (this.#artifacts.size <= this.maxArtifacts && this.#totalBytes <= this.maxBytes) break;
      this.#artifacts.delete(uri);
      this.#totalBytes -= oldest.bytes;
    }
  }
}

function parseSnapshot(snapshot: unknown): Artifact[] {
  const fail = (why: string): never => {
    throw new CodeError('SERIALIZATION_ERROR', `invalid artifact store snapshot: ${why}`, { details: { reason: why } });
  };
  if (typeof snapshot !== 'object' || snapshot === null) return fail('not an object');
  const record = snapshot as Record<string, unknown>;
  if (record['version'] !== 1) return fail(`unsupported version ${String(record['version'])}`);
  const list = record['artifacts'];
  if (!Array.isArray(list)) return fail('artifacts is not an array');
  return list.map((raw: unknown, index): Artifact => {
    const item = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
    const { uri, id, tool, content, mediaType, createdAtMs, truncated, originalBytes } = item;
    if (typeof tool !== 'string' || !TOOL_PATTERN.test(tool)) return fail(`artifacts[${index}].tool is invalid`);
    if (typeof id !== 'string' || !ID_PATTERN.test(id)) return fail(`artifacts[${index}].id is invalid`);
    if (uri !== ArtifactStore.uriFor(tool, id)) return fail(`artifacts[${index}].uri does not match its tool and id`);
    if (typeof content !== 'string') return fail(`artifacts[${index}].content is not a string`);
    if (typeof mediaType !== 'string') return fail(`artifacts[${index}].mediaType is not a string`);
    if (typeof createdAtMs !== 'number' || !Number.isFinite(createdAtMs)) return fail(`artifacts[${index}].createdAtMs is not a number`);
    if (truncated !== undefined && truncated !== true) return fail(`artifacts[${index}].truncated must be true when present`);
    if (truncated === true && (typeof originalBytes !== 'number' || !Number.isSafeInteger(originalBytes) || originalBytes < 0)) return fail(`artifacts[${index}].originalBytes must be a byte count`);
    // Recomputed rather than trusted: eviction accounting must not depend on stored numbers.
    return { uri, id, tool, content, mediaType, bytes: utf8ByteLength(content), createdAtMs, ...(truncated === true ? { truncated, originalBytes: originalBytes as number } : {}) };
  });
}
