/**
 * What a workspace backend can do. The session's tool surface is assembled from this set:
 * a backend without `exec` has no `bash`, one without `search` has no `grep`/`glob`.
 */
export interface WorkspaceCapabilities {
  readonly read: boolean;
  readonly write: boolean;
  readonly list: boolean;
  readonly search: boolean;
  readonly exec: boolean;
  readonly git: boolean;
  /** Writes can be made conditional on a version (`expectedVersion`). */
  readonly versionedWrites: boolean;
}

/** Names of the {@link WorkspaceCapabilities} flags. */
export type WorkspaceCapability = keyof WorkspaceCapabilities;

/** Options shared by every backend call. */
export interface BackendCallOptions {
  /** Aborts the call; the backend stops work and rejects with an `AbortError`. */
  readonly abortSignal?: AbortSignal;
}

/** A file's bytes plus the version token used for conditional writes. */
export interface WorkspaceFile {
  /** Canonical workspace-relative path (POSIX separators, no leading `./`). */
  readonly path: string;
  readonly content: Uint8Array;
  /** Opaque version token (mtime+size+inode locally, ETag on S3). */
  readonly version: string;
  readonly size: number;
}

/** A window of a file's bytes: `length` bytes from byte `start` (both non-negative integers). */
export interface ByteRange {
  readonly start: number;
  readonly length: number;
}

/** Entry type in a listing. */
export type WorkspaceEntryType = 'file' | 'directory' | 'symlink' | 'other';

/** Facts about one path. */
export interface WorkspaceStat {
  readonly path: string;
  readonly type: WorkspaceEntryType;
  readonly size: number;
  /** Last modification, ms since the epoch. */
  readonly modifiedMs: number;
  readonly version: string;
}

/** One entry of a directory listing. */
export interface WorkspaceEntry {
  /** Base name. */
  readonly name: string;
  /** Canonical workspace-relative path. */
  readonly path: string;
  readonly type: WorkspaceEntryType;
  readonly size: number;
}

/** A page of results with an opaque continuation cursor (`null` at the end). */
export interface Page<T> {
  readonly items: readonly T[];
  readonly nextCursor: string | null;
  /** True when a backend limit (e.g. an S3 object scan cap) made the result incomplete. */
  readonly truncated?: boolean;
  /** Human-readable warnings about incompleteness. */
  readonly warnings?: readonly string[];
}

/** Options of {@link WorkspaceBackend.writeFile}. */
export interface WriteFileOptions extends BackendCallOptions {
  readonly path: string;
  readonly content: Uint8Array | string;
  /**
   * Conditional write (needs `versionedWrites`): a version string means "only if the current
   * version is this"; `null` means "only if the file does not exist". Omitted = unconditional.
   * A mismatch throws a `HostFailure` with reason `Conflict`.
   */
  readonly expectedVersion?: string | null;
}

/** Options of {@link WorkspaceBackend.glob}. */
export interface GlobOptions extends BackendCallOptions {
  /** Glob pattern relative to `path` (e.g. `src/**\/*.ts`). */
  readonly pattern: string;
  /** Directory to search from, workspace-relative; default the root. */
  readonly path?: string;
  readonly limit: number;
  readonly cursor?: string;
  /** `backend` keeps the backend's natural order (recency for local); `path` sorts lexically. */
  readonly sort: 'backend' | 'path';
}

/** What a search should build. Non-content modes never build match text. */
export type SearchOutputMode = 'content' | 'files_with_matches' | 'count' | 'summary';

/** Options of {@link WorkspaceBackend.search}. */
export interface SearchOptions extends BackendCallOptions {
  /** Regular expression (ripgrep / Rust regex syntax; the fallback accepts the same subset). */
  readonly pattern: string;
  readonly path?: string;
  /** Glob filter on file paths. */
  readonly glob?: string;
  readonly caseInsensitive?: boolean;
  /** Lines of context around each match (content mode). */
  readonly context?: number;
  readonly outputMode: SearchOutputMode;
  /** Maximum number of items (lines in content mode, files otherwise). */
  readonly limit: number;
  readonly cursor?: string;
}

/** One line of content-mode output. */
export interface SearchLine {
  readonly path: string;
  /** 1-based line number. */
  readonly line: number;
  readonly text: string;
  /** False for context lines. */
  readonly match: boolean;
}

/** Result of {@link WorkspaceBackend.search}. */
export interface SearchResult {
  readonly mode: SearchOutputMode;
  /** Content mode: matching (and context) lines in file order. */
  readonly lines?: readonly SearchLine[];
  /** files_with_matches / count / summary: per-file match counts (count 0 never listed). */
  readonly files?: readonly { readonly path: string; readonly count: number }[];
  readonly totalMatches: number;
  readonly totalFiles: number;
  readonly nextCursor: string | null;
  readonly truncated?: boolean;
  readonly warnings?: readonly string[];
}

/** Options of {@link WorkspaceBackend.exec}. */
export interface ExecOptions extends BackendCallOptions {
  /** Shell command run with `bash -c`. */
  readonly command: string;
  /** Working directory, workspace-relative; default the root. Confined like any path. */
  readonly cwd?: string;
  /** Deadline in ms covering start, draining the pipes and waiting for the process. */
  readonly timeoutMs: number;
  /** Byte budget across stdout and stderr together (head and tail kept). */
  readonly maxOutputBytes?: number;
  /** Extra environment variables the host passes on purpose. */
  readonly env?: Readonly<Record<string, string>>;
  /**
   * Called with output as the process writes it (UTF-8 decoded per stream, never splitting a
   * character), before any capture bound applies; for progress display only — the result is the
   * authority. A backend that cannot stream ignores it.
   */
  readonly onOutput?: (stream: 'stdout' | 'stderr', text: string) => void;
}

/** Result of a process run. */
export interface ExecResult {
  readonly stdout: string;
  readonly stderr: string;
  /** Process exit code; `null` when killed by a signal. */
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly timedOut: boolean;
  readonly cancelled: boolean;
  readonly durationMs: number;
  /** Bytes produced by the process on each stream, including dropped ones. */
  readonly stdoutBytes: number;
  readonly stderrBytes: number;
  /** Bytes dropped from the middle of the captured output. */
  readonly droppedBytes: number;
  /**
   * Descendants that had left the process group (`setsid`, double fork) and were killed when
   * the call ended. Absent when there were none (or the backend cannot tell).
   */
  readonly killedEscapedProcesses?: readonly { readonly pid: number; readonly command: string }[];
}

/** Options of {@link WorkspaceBackend.git}. */
export interface GitOptions extends BackendCallOptions {
  /** Arguments after `git` (never passed through a shell). */
  readonly args: readonly string[];
  readonly timeoutMs?: number;
  readonly maxOutputBytes?: number;
}

/**
 * A function wrapping a session's workspace backend (`SessionOptions.workspaceOverlay`): it gets
 * the backend the session would use (the default local, possibly sandboxed, one, or the
 * `workspaceBackend` passed) and returns the backend the tools call. The session keeps its kernel
 * in front of it (permission rules, hooks, confirmation) and confines every path first: each
 * path-taking method is reached only with the canonical path the wrapped backend's
 * `resolvePath` accepted (`forWrite` for writes and deletes: protected paths refused), so a path
 * outside the workspace or on a deny-read list never reaches the overlay. Capabilities are the
 * wrapped backend's, narrowed to what the overlay implements. Use: serve reads and writes from an
 * editor's buffers (`a3s-code acp`), record or mirror file access.
 */
export type WorkspaceOverlay = (backend: WorkspaceBackend) => WorkspaceBackend;

/**
 * A workspace: where tools read, write, search and run. Implementations: the local filesystem
 * (`@a3s-lab/code-local`), S3 (`@a3s-lab/code-s3`). Every method takes ONE options object with
 * an `abortSignal`. Absent things come back as `null`; host failures are thrown as
 * `HostFailure` with a normalised reason. Every path goes through the backend's single
 * confinement function: a path outside the workspace throws a `SECURITY_ERROR` CodeError.
 *
 * Optional methods exist exactly when the matching capability flag is true.
 */
export interface WorkspaceBackend {
  /** Short backend kind, e.g. `local` or `s3`. */
  readonly kind: string;
  /** Display form of the root (`/abs/dir`, `s3://bucket/prefix`). */
  readonly root: string;
  readonly capabilities: WorkspaceCapabilities;

  /**
   * Canonical workspace-relative form of `path` after confinement (the form permission rules
   * match against). Throws SECURITY_ERROR for a path that leads out.
   */
  resolvePath(options: BackendCallOptions & { readonly path: string; readonly forWrite?: boolean }): Promise<string>;
  /**
   * Reads a file; `null` when absent. With `range`, `content` holds at most `range.length` bytes
   * from byte `range.start` (fewer at the end of the file) while `size` stays the whole file's
   * size: large files are read in windows, never loaded whole. A backend may ignore `range` and
   * return the whole file (callers check `content.byteLength` against `size`).
   */
  readFile(options: BackendCallOptions & { readonly path: string; readonly range?: ByteRange }): Promise<WorkspaceFile | null>;
  stat(options: BackendCallOptions & { readonly path: string }): Promise<WorkspaceStat | null>;
  writeFile?(options: WriteFileOptions): Promise<{ readonly path: string; readonly version: string }>;
  deleteFile?(options: BackendCallOptions & { readonly path: string; readonly expectedVersion?: string }): Promise<boolean>;
  list?(options: BackendCallOptions & { readonly path: string; readonly limit: number; readonly cursor?: string }): Promise<Page<WorkspaceEntry> | null>;
  glob?(options: GlobOptions): Promise<Page<string>>;
  search?(options: SearchOptions): Promise<SearchResult>;
  exec?(options: ExecOptions): Promise<ExecResult>;
  git?(options: GitOptions): Promise<ExecResult>;
  /**
   * Loads what the backend's first calls need (the local backend: its search engine), so they do
   * not pay for it. Called by the session while its first model request is in flight; optional,
   * never needed for correctness, and a failure is left to the call that needs the part.
   */
  prepare?(): Promise<void>;
  /** Releases resources (kills live process groups). Idempotent. */
  close?(): Promise<void>;
}
