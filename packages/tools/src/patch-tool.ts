import { CodeError, defineTool, HostFailure, toolFailure } from '@a3s-lab/code-core';
import type { FromJsonSchema, Tool, ToolContext, ToolOutput, ToolParametersSchema, WorkspaceFile } from '@a3s-lab/code-core';
import { describeChange } from './change-metadata.js';
import { decodeFileText, encodeFileText } from './file-text.js';
import type { FileText } from './file-text.js';
import { loadFile } from './load-file.js';
import { applyHunks } from './patch-apply.js';
import { failureFromThrown, invalidArgument, looksBinary, mutatingCapabilities } from './tool-support.js';
import { parseUnifiedDiff } from './unified-diff-parse.js';
import type { ParsedPatch } from './unified-diff-parse.js';

/** The JSON Schema of `patch`'s arguments: what the model sees and the kernel validates. */
const PARAMETERS = {
  type: 'object',
  additionalProperties: false,
  required: ['file_path', 'diff'],
  properties: {
    file_path: { type: 'string', minLength: 1, description: 'Workspace-relative path.' },
    diff: { type: 'string', minLength: 1, description: 'Hunks "@@ -a,b +c,d @@".' },
  },
} as const satisfies ToolParametersSchema;

/** Arguments of `patch`, read from its schema. */
type PatchArgs = FromJsonSchema<typeof PARAMETERS>;

/**
 * Creates the `patch` tool: applies a strict unified diff to ONE file. Everything is validated
 * before anything is written; a stale or partial patch changes nothing and names the hunk and
 * line that failed.
 */
export function createPatchTool(): Tool<PatchArgs> {
  return defineTool({
    name: 'patch',
    description:
      'Apply a unified diff to one file. Hunk headers must match the body\'s line counts and every context/removed line the file; ' +
      'else nothing changes and the error names the hunk and line. "--- /dev/null" creates the file.',
    parameters: PARAMETERS,
    requires: ['read', 'write'],
    capabilities: () => mutatingCapabilities({ outputKind: 'diff' }),
    permissionTarget: (args) => ({ kind: 'paths', paths: [args.file_path] }),
    execute: (args, context) => executePatch(args, context),
  });
}

async function executePatch(args: PatchArgs, context: ToolContext): Promise<ToolOutput> {
  const { workspace, abortSignal } = context;
  let parsed: ParsedPatch;
  try {
    parsed = parseUnifiedDiff(args.diff);
  } catch (error) {
    return failureFromThrown(error);
  }
  let path: string;
  try {
    path = await workspace.resolvePath({ path: args.file_path, forWrite: true, abortSignal });
  } catch (error) {
    if (CodeError.hasCode(error, 'SECURITY_ERROR')) return toolFailure(error.message, { type: 'permission_denied', reason: error.message });
    throw error;
  }
  for (const header of [parsed.oldPath, parsed.newPath]) {
    if (typeof header === 'string' && !headerNames(header, path, workspace.root)) {
      return invalidArgument(`the diff header names '${header}' but file_path is '${path}'; a patch changes only file_path, so nothing was changed`, { header, path });
    }
  }
  const creating = parsed.oldPath === null;
  const deleting = parsed.newPath === null;
  if (creating && deleting) return invalidArgument('the diff has /dev/null on both sides');
  let file: WorkspaceFile | null = null;
  const loaded = await loadFile(workspace, path, abortSignal);
  if (loaded.ok) file = loaded.file;
  else if (loaded.failure.errorKind?.type !== 'not_found') return loaded.failure;
  const pureInsertion = parsed.hunks.length === 1 && parsed.hunks[0]?.oldCount === 0 && parsed.hunks[0]?.oldStart === 0;
  if (creating && file !== null) return invalidArgument(`the diff creates ${path} (--- /dev/null) but it already exists; nothing was changed`);
  if (file === null && !(creating || (parsed.oldPath === undefined && pureInsertion))) return loaded.ok ? invalidArgument(`${path} cannot be read`) : loaded.failure;
  if (file !== null && looksBinary(file.content)) return invalidArgument(`${path} is a binary file; patch works on text files`);
  const decoded: FileText | null = file === null ? { text: '', bom: false } : decodeFileText(file.content);
  if (decoded === null) return invalidArgument(`${path} is not valid UTF-8 text; patch would corrupt its other bytes, so nothing was changed`, { path });
  const before = decoded.text;
  let after: string;
  try {
    after = applyHunks(path, before, parsed.hunks, parsed.crlf);
  } catch (error) {
    return failureFromThrown(error);
  }
  if (deleting && after !== '') return invalidArgument(`the diff deletes ${path} (+++ /dev/null) but lines would remain; nothing was changed`);
  const afterBytes = encodeFileText(after, decoded.bom);
  const change = await describeChange(
    { path, before, after, beforeBytes: file?.content ?? new Uint8Array(0), afterBytes, ...(file === null ? { created: true } : {}), ...(deleting ? { deleted: true } : {}) },
    context,
  );
  const expectedVersion = workspace.capabilities.versionedWrites ? { expectedVersion: file === null ? null : file.version } : {};
  try {
    let version: string | null = null;
    if (deleting) {
      if (workspace.deleteFile === undefined) return toolFailure('this workspace cannot delete files', { type: 'unsupported', message: 'workspace has no deleteFile' });
      await workspace.deleteFile({ path, abortSignal, ...(file === null ? {} : { expectedVersion: file.version }) });
    } else {
      if (workspace.writeFile === undefined) return toolFailure('this workspace cannot write files', { type: 'unsupported', message: 'workspace has no write capability' });
      version = (await workspace.writeFile({ path, content: afterBytes, abortSignal, ...expectedVersion })).version;
    }
    const verb = deleting ? 'Deleted' : file === null ? 'Created' : 'Patched';
    return {
      output: `${verb} ${path}: ${parsed.hunks.length} hunk(s) applied (+${change.additions} -${change.deletions}).\n${change.diff}`,
      metadata: { ...change.metadata, hunks_applied: parsed.hunks.length, created: file === null, deleted: deleting, ...(version === null ? {} : { version }) },
      ...(change.artifacts.length > 0 ? { artifacts: change.artifacts } : {}),
    };
  } catch (error) {
    if (HostFailure.isHostFailure(error) && (error.reason === 'Conflict' || error.reason === 'AlreadyExists')) {
      return toolFailure(`${path} changed after it was read; nothing was written. Read it again and regenerate the diff.`, { type: 'version_conflict', path, expected: file?.version ?? null });
    }
    throw error;
  }
}

/**
 * True when a `---`/`+++` header names `path`: exactly, with git's `a/`/`b/` prefix, or as the
 * absolute form under the workspace root. Anything else (another file, `..`, an outside
 * absolute path) is a different file, and the patch is refused without touching anything.
 */
function headerNames(header: string, path: string, root: string): boolean {
  const candidates = [header];
  if (header.startsWith('a/') || header.startsWith('b/')) candidates.push(header.slice(2));
  const rootPrefix = `${root.replace(/\/+$/, '')}/`;
  if (header.startsWith(rootPrefix)) candidates.push(header.slice(rootPrefix.length));
  return candidates.some((candidate) => normalise(candidate) === path);
}

function normalise(path: string): string | null {
  if (path.startsWith('/')) return null;
  const parts: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') return null;
    parts.push(part);
  }
  return parts.length === 0 ? null : parts.join('/');
}
