import { defineTool } from '@a3s-lab/code-core';
import type { FromJsonSchema, Tool, ToolContext, ToolParametersSchema } from '@a3s-lab/code-core';
import { describeChange } from './change-metadata.js';
import { decodeFileText } from './file-text.js';
import { loadFile } from './load-file.js';
import { sha256Hex } from './sha256.js';
import { looksBinary, mutatingCapabilities, utf8Encoder } from './tool-support.js';

/** The JSON Schema of `write`'s arguments: what the model sees and the kernel validates. */
const PARAMETERS = {
  type: 'object',
  additionalProperties: false,
  required: ['file_path', 'content'],
  properties: {
    file_path: { type: 'string', minLength: 1, description: 'Workspace-relative path.' },
    content: { type: 'string', description: 'The whole new content.' },
  },
} as const satisfies ToolParametersSchema;

/** Arguments of `write`, read from its schema. */
type WriteArgs = FromJsonSchema<typeof PARAMETERS>;

/**
 * Creates the `write` tool: writes a whole file (creating parent directories), replacing it.
 * Replacing an existing text file reports the change like `edit` does ({@link describeChange}):
 * unified diff, additions/deletions, sha256 hashes and sizes of both sides, the full before/after
 * text for small files and bounded previews plus an artifact holding the whole diff for large
 * ones. A binary (or non-UTF-8) side gets hashes and sizes only (`diff_unavailable`).
 */
export function createWriteTool(): Tool<WriteArgs> {
  return defineTool({
    name: 'write',
    description: 'Create or replace a whole file (parents created). To change part of a file use edit or patch.',
    parameters: PARAMETERS,
    requires: ['write'],
    capabilities: () => mutatingCapabilities(),
    permissionTarget: (args) => ({ kind: 'paths', paths: [args.file_path] }),
    async execute(args, context) {
      const { workspace, abortSignal } = context;
      if (workspace.writeFile === undefined) return { output: 'this workspace cannot write files', exitCode: 1, errorKind: { type: 'unsupported', message: 'workspace has no write capability' } };
      const existing = await workspace.stat({ path: args.file_path, abortSignal });
      if (existing !== null && existing.type === 'directory') {
        return { output: `${existing.path} is a directory; give a file path`, exitCode: 1, errorKind: { type: 'invalid_argument', message: `${existing.path} is a directory` } };
      }
      const bytes = utf8Encoder.encode(args.content);
      // The previous content, for the change description (read before it is replaced). A file
      // that cannot be loaded whole (too large, unreadable) is still written, without a diff.
      const previous =
        existing === null
          ? null
          : await loadFile(workspace, args.file_path, abortSignal).catch((error: unknown) => {
              if (abortSignal.aborted) throw error;
              return null;
            });
      const written = await workspace.writeFile({ path: args.file_path, content: bytes, abortSignal });
      const created = existing === null;
      const basic = { path: written.path, bytes: bytes.byteLength, created, version: written.version };
      if (previous === null || !previous.ok) {
        return { output: `${created ? 'Created' : 'Wrote'} ${written.path} (${bytes.byteLength} bytes)`, metadata: basic };
      }
      const change = await replacementOf(written.path, previous.file.content, args.content, bytes, context);
      const counts = change.counts === null ? '' : `; +${change.counts.additions} -${change.counts.deletions}`;
      return {
        output: `Wrote ${written.path} (${bytes.byteLength} bytes${counts})`,
        metadata: { ...change.metadata, ...basic },
        ...(change.artifacts.length > 0 ? { artifacts: change.artifacts } : {}),
      };
    },
  });
}

/** How replacing `beforeBytes` with `after` is reported: edit's change description, or hashes and sizes for binary content. */
async function replacementOf(
  path: string,
  beforeBytes: Uint8Array,
  after: string,
  afterBytes: Uint8Array,
  context: Pick<ToolContext, 'storeArtifact'>,
): Promise<{ metadata: Record<string, unknown>; artifacts: string[]; counts: { additions: number; deletions: number } | null }> {
  const decoded = looksBinary(beforeBytes) ? null : decodeFileText(beforeBytes);
  if (decoded === null || looksBinary(afterBytes)) {
    const [beforeHash, afterHash] = await Promise.all([sha256Hex(beforeBytes), sha256Hex(afterBytes)]);
    return {
      metadata: { before_hash: beforeHash, after_hash: afterHash, before_bytes: beforeBytes.byteLength, after_bytes: afterBytes.byteLength, diff_unavailable: 'binary or non-UTF-8 content' },
      artifacts: [],
      counts: null,
    };
  }
  const change = await describeChange({ path, before: decoded.text, after, beforeBytes, afterBytes }, context);
  return { metadata: change.metadata, artifacts: change.artifacts, counts: { additions: change.additions, deletions: change.deletions } };
}
