import { defineTool, toolFailure } from '@a3s-lab/code-core';
import type { FromJsonSchema, Tool, ToolParametersSchema } from '@a3s-lab/code-core';
import { failureFromThrown, readOnlyCapabilities } from './tool-support.js';

/** Paths per `glob` page when no `limit` is given. */
export const DEFAULT_GLOB_LIMIT = 200;
/** Largest `glob` page. */
export const MAX_GLOB_LIMIT = 1000;

/** The JSON Schema of `glob`'s arguments: what the model sees and the kernel validates. */
const PARAMETERS = {
  type: 'object',
  additionalProperties: false,
  required: ['pattern'],
  properties: {
    pattern: { type: 'string', minLength: 1, maxLength: 4096, description: '* ? within a segment, ** across, {a,b}.' },
    path: { type: 'string', minLength: 1, description: 'Directory. Default the root.' },
    limit: { type: 'integer', minimum: 1, maximum: MAX_GLOB_LIMIT, description: `Default ${DEFAULT_GLOB_LIMIT}.` },
    cursor: { type: 'string', minLength: 1, maxLength: 4096, description: 'metadata.next_cursor of the same query.' },
    sort: { type: 'string', enum: ['backend', 'path'], description: 'Default backend (recency).' },
  },
} as const satisfies ToolParametersSchema;

/** Arguments of `glob`, read from its schema. */
type GlobArgs = FromJsonSchema<typeof PARAMETERS>;

/** Creates the `glob` tool: file paths matching a glob, one per line, with cursor pagination. */
export function createGlobTool(): Tool<GlobArgs> {
  return defineTool({
    name: 'glob',
    description:
      'Find files by glob (e.g. "src/**/*.ts"), one path per line, most recently modified first (local workspace); sort: "path" gives stable lexical pages.',
    parameters: PARAMETERS,
    requires: ['search'],
    capabilities: () => readOnlyCapabilities({ resumable: true, supportsPagination: true }),
    permissionTarget: (args) => ({ kind: 'paths', paths: [args.path ?? '.'] }),
    async execute(args, context) {
      const { workspace, abortSignal } = context;
      if (workspace.glob === undefined) return toolFailure('this workspace cannot search files', { type: 'unsupported', message: 'workspace has no glob' });
      let page;
      try {
        page = await workspace.glob({
          pattern: args.pattern,
          limit: args.limit ?? DEFAULT_GLOB_LIMIT,
          sort: args.sort ?? 'backend',
          abortSignal,
          ...(args.path === undefined ? {} : { path: args.path }),
          ...(args.cursor === undefined ? {} : { cursor: args.cursor }),
        });
      } catch (error) {
        return failureFromThrown(error);
      }
      const truncated = page.nextCursor !== null || page.truncated === true;
      let output = page.items.length === 0 ? `No files match ${args.pattern}` : page.items.join('\n');
      if (page.nextCursor !== null) output += `\n... more files; call glob again with cursor="${page.nextCursor}"`;
      for (const warning of page.warnings ?? []) output += `\nwarning: ${warning}`;
      return {
        output,
        metadata: { count: page.items.length, next_cursor: page.nextCursor, truncated, ...(page.warnings === undefined ? {} : { warnings: page.warnings }) },
      };
    },
  });
}
