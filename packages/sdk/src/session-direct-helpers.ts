import type { AgentSession } from '@a3s-lab/code-runtime';
import { execOutputText } from '@a3s-lab/code-tools';
import type { GenerateObjectOptions, GlobOptions, GrepOptions, ReadFileOptions } from './session-helper-options.js';
import { throwIfFailed } from './tool-result-view.js';

// The direct helpers of `Session` whose results are shaped here rather than returned as the
// tool's result: each is one host-direct tool call (or a paged series) on `core`.

/** Page size `globPaths` asks for when collecting every match (small enough to stay under the inline output bound). */
const MAX_GLOB_PAGE = 250;

/** A file's text through the `read` tool; text beyond the kernel's inline bound comes from its artifact. */
export async function readFileText(core: AgentSession, path: string, options: ReadFileOptions): Promise<string> {
  const result = await core.tool('read', { file_path: path, ...options, format: 'raw' });
  throwIfFailed(result);
  // Text beyond the kernel's inline bound is kept whole in an artifact: return that.
  const bounds = result.metadata?.['output_bounds'] as { artifact?: unknown; artifact_truncated?: unknown } | undefined;
  if (typeof bounds?.artifact === 'string' && bounds.artifact_truncated !== true) {
    const artifact = core.getArtifact(bounds.artifact);
    if (artifact !== null) return artifact.content;
  }
  return result.output;
}

/** Every path the `glob` tool matches, paging through its cursor (only that page with `limit` or `cursor`). */
export async function globPaths(core: AgentSession, pattern: string, options: GlobOptions): Promise<string[]> {
  const single = options.limit !== undefined || options.cursor !== undefined;
  const paths: string[] = [];
  let cursor = options.cursor;
  for (;;) {
    const result = await core.tool('glob', { pattern, ...options, ...(single ? {} : { limit: MAX_GLOB_PAGE }), ...(cursor === undefined ? {} : { cursor }) });
    throwIfFailed(result);
    const count = typeof result.metadata?.['count'] === 'number' ? result.metadata['count'] : 0;
    paths.push(...result.output.split('\n').slice(0, count));
    const next = result.metadata?.['next_cursor'];
    if (single || typeof next !== 'string') return paths;
    cursor = next;
  }
}

/** The `grep` tool's text output. */
export async function grepText(core: AgentSession, pattern: string, options: GrepOptions): Promise<string> {
  const { caseInsensitive, outputMode, ...rest } = options;
  const result = await core.tool('grep', {
    pattern,
    ...rest,
    ...(caseInsensitive === undefined ? {} : { '-i': caseInsensitive }),
    ...(outputMode === undefined ? {} : { output_mode: outputMode }),
  });
  throwIfFailed(result);
  return result.output;
}

/** The output of a `bash` command (stdout, then stderr); a non-zero exit still returns it, a timeout, cancellation or refusal rejects. */
export async function bashText(core: AgentSession, command: string, options: { readonly timeout?: number }): Promise<string> {
  const result = await core.tool('bash', { command, ...options });
  if (result.exitCode !== 0 && result.errorKind !== undefined) throwIfFailed(result);
  return execOutputText(result.output);
}

/** The parsed object the `generate_object` tool returns for `schema` and `prompt`. */
export async function generateObjectValue(core: AgentSession, schema: object, prompt: string, options: GenerateObjectOptions): Promise<unknown> {
  const result = await core.tool('generate_object', {
    schema,
    prompt,
    ...(options.schemaName === undefined ? {} : { schema_name: options.schemaName }),
    ...(options.mode === undefined ? {} : { mode: options.mode }),
    ...(options.maxRepairAttempts === undefined ? {} : { max_repair_attempts: options.maxRepairAttempts }),
    ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
  });
  throwIfFailed(result);
  return (JSON.parse(result.output) as { object: unknown }).object;
}
