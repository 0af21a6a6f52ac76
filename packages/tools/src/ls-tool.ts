import { CodeError, defineTool, toolFailure } from '@a3s-lab/code-core';
import type { FromJsonSchema, Tool, ToolParametersSchema, WorkspaceEntry } from '@a3s-lab/code-core';
import { invalidArgument, notFound, readOnlyCapabilities } from './tool-support.js';

/** Entries per `ls` page when no `limit` is given. */
export const DEFAULT_LS_LIMIT = 500;
/** Largest `ls` page. */
export const MAX_LS_LIMIT = 2000;

/** The JSON Schema of `ls`'s arguments: what the model sees and the kernel validates. */
const PARAMETERS = {
  type: 'object',
  additionalProperties: false,
  properties: {
    path: { type: 'string', minLength: 1, description: 'Default the root.' },
    limit: { type: 'integer', minimum: 1, maximum: MAX_LS_LIMIT, description: `Default ${DEFAULT_LS_LIMIT}.` },
    cursor: { type: 'string', minLength: 1, maxLength: 4096, description: 'From the previous page.' },
    offset: { type: 'integer', minimum: 0, maximum: 1000000, description: 'Entries to skip. Default 0.' },
  },
} as const satisfies ToolParametersSchema;

/** Arguments of `ls`, read from its schema. */
type LsArgs = FromJsonSchema<typeof PARAMETERS>;

/**
 * Creates the `ls` tool: one directory level, directories marked with a trailing `/`, paginated
 * with the backend's cursor (or a numeric offset) and a continuation note.
 */
export function createLsTool(): Tool<LsArgs> {
  return defineTool({
    name: 'ls',
    description: 'List a directory (subdirectories end with "/"); long listings end with the cursor to continue.',
    parameters: PARAMETERS,
    requires: ['list'],
    capabilities: () => readOnlyCapabilities({ resumable: true, supportsPagination: true }),
    permissionTarget: (args) => ({ kind: 'paths', paths: [args.path ?? '.'] }),
    async execute(args, context) {
      const { workspace, abortSignal } = context;
      if (workspace.list === undefined) return toolFailure('this workspace cannot list directories', { type: 'unsupported', message: 'workspace has no list capability' });
      if (args.cursor !== undefined && args.offset !== undefined) return invalidArgument('give either cursor or offset, not both');
      const path = args.path ?? '.';
      const limit = args.limit ?? DEFAULT_LS_LIMIT;
      const offset = args.offset ?? 0;
      const entries: WorkspaceEntry[] = [];
      let cursor = args.cursor;
      let skipped = 0;
      let nextCursor: string | null = null;
      // An offset is served by skipping through backend pages; the cursor stays opaque.
      for (;;) {
        let page;
        try {
          page = await workspace.list({ path, limit: Math.min(MAX_LS_LIMIT, limit + offset - skipped), abortSignal, ...(cursor === undefined ? {} : { cursor }) });
        } catch (error) {
          if (CodeError.hasCode(error, 'SECURITY_ERROR')) throw error;
          if (CodeError.isInstance(error) && error.details['errorKind'] !== undefined) return invalidArgument(`invalid cursor for ls of ${path}`);
          throw error;
        }
        if (page === null) {
          const stat = await workspace.stat({ path, abortSignal });
          if (stat !== null && stat.type !== 'directory') return invalidArgument(`${stat.path} is a file, not a directory; use read to see it`);
          return notFound(path, `Directory not found: ${path}`);
        }
        for (const entry of page.items) {
          if (skipped < offset) skipped += 1;
          else if (entries.length < limit) entries.push(entry);
        }
        nextCursor = page.nextCursor;
        if (entries.length >= limit || nextCursor === null) break;
        cursor = nextCursor;
      }
      const lines = entries.map((entry) => (entry.type === 'directory' ? `${entry.name}/` : entry.name));
      let output = lines.length === 0 ? `(empty directory: ${path})` : lines.join('\n');
      if (nextCursor !== null) output += `\n... more entries; call ls with path="${path}" and cursor="${nextCursor}"`;
      return {
        output,
        metadata: {
          path,
          count: entries.length,
          next_cursor: nextCursor,
          next_offset: nextCursor === null ? null : offset + entries.length,
          truncated: nextCursor !== null,
          entries: entries.map((entry) => ({ name: entry.name, path: entry.path, type: entry.type, size: entry.size })),
        },
      };
    },
  });
}
