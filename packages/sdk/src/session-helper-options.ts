/** Options of `readFile`. */
export interface ReadFileOptions {
  /** 0-based first line. */
  readonly offset?: number;
  /** Number of lines (1..2000). */
  readonly limit?: number;
}

/** Options of `grep`. */
export interface GrepOptions {
  readonly path?: string;
  readonly glob?: string;
  readonly context?: number;
  readonly caseInsensitive?: boolean;
  readonly outputMode?: 'content' | 'files_with_matches' | 'count' | 'summary';
  readonly limit?: number;
  readonly cursor?: string;
}

/** Options of `glob`. */
export interface GlobOptions {
  readonly path?: string;
  readonly limit?: number;
  readonly cursor?: string;
  readonly sort?: 'backend' | 'path';
}

/** Options of `generateObject`. */
export interface GenerateObjectOptions {
  readonly schemaName?: string;
  readonly mode?: 'tool' | 'prompt' | 'auto' | 'strict' | 'json';
  readonly maxRepairAttempts?: number;
  readonly instructions?: string;
}

/** Options of the `git` helper's object form. */
export interface GitOptions {
  readonly command: 'status' | 'log' | 'diff' | 'branch' | 'checkout' | 'stash' | 'remote' | 'worktree';
  readonly subcommand?: string;
  readonly [arg: string]: unknown;
}

