import { defineTool, toolFailure } from '@a3s-lab/code-core';
import type { FromJsonSchema, SearchOutputMode, SearchResult, Tool, ToolParametersSchema } from '@a3s-lab/code-core';
import { failureFromThrown, invalidArgument, readOnlyCapabilities } from './tool-support.js';

/** Items per `grep` page when no `limit` is given (lines in content mode, files otherwise). */
export const DEFAULT_GREP_LIMIT = 200;
/** Largest `grep` page. */
export const MAX_GREP_LIMIT = 2000;
/** Largest `context`. */
export const MAX_GREP_CONTEXT = 20;
/** Matched lines are cut at this many characters (minified files). */
export const MAX_GREP_LINE_CHARS = 500;

/** The JSON Schema of `grep`'s arguments: what the model sees and the kernel validates. */
const PARAMETERS = {
  type: 'object',
  additionalProperties: false,
  required: ['pattern'],
  properties: {
    pattern: { type: 'string', minLength: 1, maxLength: 4096, description: 'Regex to search for.' },
    path: { type: 'string', minLength: 1, description: 'File or directory. Default the root.' },
    glob: { type: 'string', minLength: 1, maxLength: 4096, description: 'File filter, e.g. "*.ts".' },
    context: { type: 'integer', minimum: 0, maximum: MAX_GREP_CONTEXT, description: 'Context lines. Default 0.' },
    '-i': { type: 'boolean', description: 'Ignore case.' },
    output_mode: { type: 'string', enum: ['content', 'files_with_matches', 'count', 'summary'], description: 'Default content.' },
    limit: { type: 'integer', minimum: 1, maximum: MAX_GREP_LIMIT, description: `Lines (content) or files per page. Default ${DEFAULT_GREP_LIMIT}.` },
    cursor: { type: 'string', minLength: 1, maxLength: 4096, description: 'metadata.next_cursor of the same query.' },
  },
} as const satisfies ToolParametersSchema;

/** Arguments of `grep`, read from its schema. */
type GrepArgs = FromJsonSchema<typeof PARAMETERS>;

/**
 * Creates the `grep` tool: regex search through the workspace backend (ripgrep locally). Modes:
 * `content` (matching lines, `path:line:text`, context lines `path-line-text`),
 * `files_with_matches`, `count` (`path:count`) and `summary` (totals); non-content modes build
 * no match text.
 */
export function createGrepTool(): Tool<GrepArgs> {
  return defineTool({
    name: 'grep',
    description:
      'Search file contents by regex (ripgrep syntax). output_mode: content ("path:line:text"; context "path-line-text"), ' +
      'files_with_matches, count ("path:count") or summary.',
    parameters: PARAMETERS,
    requires: ['search'],
    capabilities: () => readOnlyCapabilities({ resumable: true, supportsPagination: true }),
    permissionTarget: (args) => ({ kind: 'paths', paths: [args.path ?? '.'] }),
    async execute(args, context) {
      const { workspace, abortSignal } = context;
      if (workspace.search === undefined) return toolFailure('this workspace cannot search file contents', { type: 'unsupported', message: 'workspace has no search' });
      const problem = regexProblem(args.pattern);
      if (problem !== null) return invalidArgument(`invalid regular expression ${JSON.stringify(args.pattern)}: ${problem}`);
      const mode = args.output_mode ?? 'content';
      let result: SearchResult;
      try {
        result = await workspace.search({
          pattern: args.pattern,
          outputMode: mode,
          limit: args.limit ?? DEFAULT_GREP_LIMIT,
          abortSignal,
          ...(args.path === undefined ? {} : { path: args.path }),
          ...(args.glob === undefined ? {} : { glob: args.glob }),
          ...(args['-i'] === true ? { caseInsensitive: true } : {}),
          ...(mode === 'content' && args.context !== undefined ? { context: args.context } : {}),
          ...(args.cursor === undefined ? {} : { cursor: args.cursor }),
        });
      } catch (error) {
        return failureFromThrown(error);
      }
      const withheld = withholdDenied(result, context.isPathDenied?.bind(context));
      result = withheld.result;
      // Redact whole lines before renderResult cuts them at MAX_GREP_LINE_CHARS.
      const redact = context.redact?.bind(context);
      if (redact !== undefined && result.lines !== undefined) result = { ...result, lines: result.lines.map((line) => ({ ...line, text: redact(line.text) })) };
      const output = [renderResult(result, mode)];
      if (withheld.files > 0) output.push(`note: ${withheld.files} file(s) withheld by the session's deny rules`);
      if (result.nextCursor !== null) output.push(`... more results; call grep again with cursor="${result.nextCursor}"`);
      for (const warning of result.warnings ?? []) output.push(`warning: ${warning}`);
      return {
        output: output.join('\n'),
        metadata: {
          mode,
          total_matches: result.totalMatches,
          total_files: result.totalFiles,
          next_cursor: result.nextCursor,
          search: { truncated: result.truncated === true, warnings: result.warnings ?? [], ...(withheld.files > 0 ? { withheld_files: withheld.files } : {}) },
        },
      };
    },
  });
}

/**
 * Drops every line and file whose path the session's deny rules refuse (deny rules apply to
 * every file a search touches, not only its root) and recounts the totals without them.
 */
function withholdDenied(result: SearchResult, isDenied: ((path: string) => boolean) | undefined): { result: SearchResult; files: number } {
  if (isDenied === undefined) return { result, files: 0 };
  const denied = new Set<string>();
  const keep = (path: string): boolean => {
    if (denied.has(path)) return false;
    if (!isDenied(path)) return true;
    denied.add(path);
    return false;
  };
  const lines = result.lines?.filter((line) => keep(line.path));
  const files = result.files?.filter((file) => keep(file.path));
  if (denied.size === 0) return { result, files: 0 };
  const deniedMatches = (result.lines ?? []).filter((line) => line.match && denied.has(line.path)).length + (result.files ?? []).filter((file) => denied.has(file.path)).reduce((sum, file) => sum + file.count, 0);
  return {
    result: {
      ...result,
      ...(lines === undefined ? {} : { lines }),
      ...(files === undefined ? {} : { files }),
      totalMatches: Math.max(0, result.totalMatches - deniedMatches),
      totalFiles: Math.max(0, result.totalFiles - denied.size),
    },
    files: denied.size,
  };
}

function renderResult(result: SearchResult, mode: SearchOutputMode): string {
  if (result.totalMatches === 0) return 'No matches found';
  if (mode === 'content') {
    const out: string[] = [];
    let previous: { path: string; line: number } | null = null;
    for (const line of result.lines ?? []) {
      // Like ripgrep: `--` separates non-adjacent groups.
      if (previous !== null && (previous.path !== line.path || line.line !== previous.line + 1)) out.push('--');
      const text = line.text.length > MAX_GREP_LINE_CHARS ? `${line.text.slice(0, MAX_GREP_LINE_CHARS)} ... [${line.text.length - MAX_GREP_LINE_CHARS} more characters]` : line.text;
      out.push(`${line.path}${line.match ? ':' : '-'}${line.line}${line.match ? ':' : '-'}${text}`);
      previous = line;
    }
    return out.join('\n');
  }
  const files = result.files ?? [];
  if (mode === 'files_with_matches') return files.map((file) => file.path).join('\n');
  if (mode === 'count') return files.map((file) => `${file.path}:${file.count}`).join('\n');
  const top = [...files].sort((a, b) => b.count - a.count).slice(0, 20);
  return [`${result.totalMatches} match(es) in ${result.totalFiles} file(s)`, ...top.map((file) => `${file.path}: ${file.count}`)].join('\n');
}

/**
 * Why `pattern` is not a usable regular expression, or null. Checked with the JS engine after
 * removing a leading inline flag group (`(?i)`), which ripgrep accepts and JS does not.
 */
function regexProblem(pattern: string): string | null {
  const source = pattern.replace(/^\(\?[imsxU]+\)/, '');
  try {
    new RegExp(source);
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
