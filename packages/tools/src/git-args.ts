/** Argument shape and defaults of the `git` tool (shared by the tool and its formatter). */
import type { FromJsonSchema, ToolParametersSchema } from '@a3s-lab/code-core';

/** Git commands the tool runs. */
export const GIT_COMMANDS = ['status', 'log', 'diff', 'branch', 'checkout', 'stash', 'remote', 'worktree'] as const;
/** Subcommands (list for branch/stash/remote/worktree; create/remove for branch/worktree; push/pop/apply/drop for stash). */
export const GIT_SUBCOMMANDS = ['list', 'create', 'remove', 'push', 'pop', 'apply', 'drop'] as const;
/** Items per page of log and list commands when no `limit` is given. */
export const DEFAULT_GIT_LIMIT = 50;
/** Default byte page of `diff`. */
export const DEFAULT_GIT_MAX_BYTES = 65536;

/** The JSON Schema of `git`'s arguments: what the model sees and the kernel validates. */
export const GIT_PARAMETERS = {
  type: 'object',
  additionalProperties: false,
  required: ['command'],
  properties: {
    command: { type: 'string', enum: [...GIT_COMMANDS], description: 'The git command.' },
    subcommand: { type: 'string', enum: [...GIT_SUBCOMMANDS], description: 'Default list.' },
    limit: { type: 'integer', minimum: 1, maximum: 200, description: `Default ${DEFAULT_GIT_LIMIT}.` },
    cursor: { type: 'string', minLength: 1, maxLength: 64, description: 'metadata.next_cursor of the same query.' },
    max_bytes: { type: 'integer', minimum: 256, maximum: 102400, description: `Diff page bytes. Default ${DEFAULT_GIT_MAX_BYTES}.` },
    path: { type: 'string', minLength: 1, description: 'Limits status/log/diff; worktree directory.' },
    ref: { type: 'string', minLength: 1, maxLength: 256, description: 'Commit-ish, range a..b or stash@{n}.' },
    branch: { type: 'string', minLength: 1, maxLength: 256, description: 'worktree create: new branch; checkout.' },
    name: { type: 'string', minLength: 1, maxLength: 256, description: 'branch create/remove.' },
    message: { type: 'string', minLength: 1, maxLength: 4096, description: 'stash push.' },
    staged: { type: 'boolean', description: 'diff --cached.' },
  },
} as const satisfies ToolParametersSchema;

/** Arguments of `git`, read from {@link GIT_PARAMETERS}. */
export type GitArgs = FromJsonSchema<typeof GIT_PARAMETERS>;

