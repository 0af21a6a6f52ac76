/** Argument shape and defaults of the `git` tool (shared by the tool and its formatter). */

/** Git commands the tool runs. */
export const GIT_COMMANDS = ['status', 'log', 'diff', 'branch', 'checkout', 'stash', 'remote', 'worktree'] as const;
/** Subcommands (list for branch/stash/remote/worktree; create/remove for branch/worktree; push/pop/apply/drop for stash). */
export const GIT_SUBCOMMANDS = ['list', 'create', 'remove', 'push', 'pop', 'apply', 'drop'] as const;
/** Items per page of log and list commands when no `limit` is given. */
export const DEFAULT_GIT_LIMIT = 50;
/** Default byte page of `diff`. */
export const DEFAULT_GIT_MAX_BYTES = 65536;
/** Arguments of `git`. */
export interface GitArgs {
  readonly command: (typeof GIT_COMMANDS)[number];
  readonly subcommand?: (typeof GIT_SUBCOMMANDS)[number];
  readonly limit?: number;
  readonly cursor?: string;
  readonly max_bytes?: number;
  readonly path?: string;
  readonly ref?: string;
  readonly branch?: string;
  readonly name?: string;
  readonly message?: string;
  readonly staged?: boolean;
}

