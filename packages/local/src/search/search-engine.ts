/** What an engine scans for: content lines, files with a match, or per-file match counts. */
export type EngineMode = 'content' | 'files' | 'count';

/** A search request after confinement, shared by both engines. */
export interface EngineSearchRequest {
  /** Real path of the workspace root (the engine's working directory). */
  readonly rootReal: string;
  /** Canonical workspace-relative path to search (`.` = the root); a directory or a file. */
  readonly searchPath: string;
  /** True when `searchPath` is a regular file (searched directly, filters do not apply). */
  readonly searchPathIsFile: boolean;
  readonly pattern: string;
  readonly caseInsensitive: boolean;
  /** Context lines around matches (content mode). */
  readonly context: number;
  /** User glob filter, already anchored relative to the root (see `anchorGlob`). */
  readonly glob?: string;
  readonly mode: EngineMode;
  /**
   * `path` (default): records in path order, streamed, so a consumer can stop early. `any`: the
   * engine may scan in parallel and emit files in any order (each file's records stay together,
   * in line order); for full scans that the caller sorts with `comparePathOrder`.
   */
  readonly order?: 'path' | 'any';
  readonly abortSignal?: AbortSignal;
}

/** A file listing request (`glob()`), after confinement. */
export interface EngineFilesRequest {
  readonly rootReal: string;
  /** Canonical workspace-relative directory to list (`.` = the root). */
  readonly searchPath: string;
  /** Glob, already anchored relative to the root. */
  readonly glob: string;
  /** As {@link EngineSearchRequest.order}. */
  readonly order?: 'path' | 'any';
  readonly abortSignal?: AbortSignal;
}

/** One content-mode line (match or context). */
export interface EngineLine {
  readonly kind: 'line';
  readonly path: string;
  readonly line: number;
  readonly text: string;
  readonly match: boolean;
}

/** One file of files/count mode; `count` is the number of matching lines (1 = "has a match" in files mode). */
export interface EngineFile {
  readonly kind: 'file';
  readonly path: string;
  readonly count: number;
}

/** A record produced by an engine, in path order. */
export type EngineRecord = EngineLine | EngineFile;

/**
 * A search engine. Records come in batches, in path order (directories depth-first, entries
 * sorted by name), so cursor offsets are stable between calls. Breaking out of the iteration
 * stops the scan (ripgrep is killed).
 */
export interface SearchEngine {
  /** `ripgrep` or `fallback`. */
  readonly name: string;
  search(request: EngineSearchRequest): AsyncIterable<readonly EngineRecord[]>;
  listFiles(request: EngineFilesRequest): AsyncIterable<readonly string[]>;
}
