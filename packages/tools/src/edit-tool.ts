import { defineTool, HostFailure } from '@a3s-lab/code-core';
import type { FromJsonSchema, Tool, ToolContext, ToolOutput, ToolParametersSchema } from '@a3s-lab/code-core';
import { describeChange } from './change-metadata.js';
import { decodeFileText, encodeFileText } from './file-text.js';
import { loadFile } from './load-file.js';
import { invalidArgument, looksBinary, mutatingCapabilities, readOnlyCapabilities } from './tool-support.js';

/** The JSON Schema of `edit`'s arguments: what the model sees and the kernel validates. */
const PARAMETERS = {
  type: 'object',
  additionalProperties: false,
  required: ['file_path', 'old_string', 'new_string'],
  properties: {
    file_path: { type: 'string', minLength: 1, description: 'Workspace-relative path.' },
    old_string: { type: 'string', minLength: 1, description: 'Exact text to replace.' },
    new_string: { type: 'string', description: 'Differs from old_string.' },
    replace_all: { type: 'boolean', description: 'Every occurrence. Default false.' },
    dry_run: { type: 'boolean', description: 'Default false.' },
    expected_replacements: { type: 'integer', minimum: 1, maximum: 100000, description: 'Fail unless exactly this many (implies all).' },
    max_replacements: { type: 'integer', minimum: 1, maximum: 100000, description: 'Fail above this many.' },
  },
} as const satisfies ToolParametersSchema;

/** Arguments of `edit`, read from its schema. */
type EditArgs = FromJsonSchema<typeof PARAMETERS>;

/** Creates the `edit` tool: exact-string replacement with a dry-run preview and count guards. */
export function createEditTool(): Tool<EditArgs> {
  return defineTool({
    name: 'edit',
    description:
      'Replace an exact string in a file. old_string must match exactly (whitespace included) and, unless replace_all or ' +
      'expected_replacements is set, once. dry_run previews the diff; then apply with expected_replacements = the previewed count.',
    parameters: PARAMETERS,
    requires: ['read', 'write'],
    capabilities: (args) => (args.dry_run === true ? readOnlyCapabilities({ outputKind: 'diff' }) : mutatingCapabilities({ outputKind: 'diff' })),
    permissionTarget: (args) => ({ kind: 'paths', paths: [args.file_path] }),
    execute: (args, context) => executeEdit(args, context),
  });
}

async function executeEdit(args: EditArgs, context: ToolContext): Promise<ToolOutput> {
  const { workspace, abortSignal } = context;
  // The schema says minLength 1, but execute() is public: an empty needle would make the
  // occurrence count loop forever on the same index.
  if (typeof args.old_string !== 'string' || args.old_string === '') return invalidArgument('old_string must be a non-empty string');
  if (args.old_string === args.new_string) return invalidArgument('old_string and new_string are identical; there is nothing to change');
  const loaded = await loadFile(workspace, args.file_path, abortSignal);
  if (!loaded.ok) return loaded.failure;
  const { file } = loaded;
  if (looksBinary(file.content)) return invalidArgument(`${file.path} is a binary file; edit works on text files`);
  const decoded = decodeFileText(file.content);
  if (decoded === null) return invalidArgument(`${file.path} is not valid UTF-8 text; edit would corrupt its other bytes, so nothing was changed`, { path: file.path });
  const before = decoded.text;
  let oldString = args.old_string;
  let newString = args.new_string;
  let count = countOccurrences(before, oldString);
  if (count === 0 && before.includes('\r\n') && oldString.includes('\n') && !oldString.includes('\r')) {
    // The model usually quotes CRLF files with LF endings; match in the file's own style and keep it.
    const crlfOld = oldString.replace(/\n/g, '\r\n');
    const crlfCount = countOccurrences(before, crlfOld);
    if (crlfCount > 0) {
      oldString = crlfOld;
      newString = newString.replace(/\r?\n/g, '\r\n');
      count = crlfCount;
    }
  }
  if (count === 0) {
    return invalidArgument(
      `old_string was not found in ${file.path}. Read the file again to get its exact current content, and check whitespace, indentation and line endings.`,
      { path: file.path, replacements: 0 },
    );
  }
  const replaceAll = args.replace_all === true || args.expected_replacements !== undefined;
  if (count > 1 && !replaceAll) {
    return invalidArgument(
      `old_string matches ${count} times in ${file.path}; include more surrounding context to make it unique, or set replace_all: true to replace every occurrence.`,
      { path: file.path, matches: count },
    );
  }
  if (args.expected_replacements !== undefined && count !== args.expected_replacements) {
    return invalidArgument(`expected ${args.expected_replacements} replacement(s) but old_string matches ${count} time(s) in ${file.path}; nothing was written`, {
      path: file.path,
      matches: count,
      expected_replacements: args.expected_replacements,
    });
  }
  if (args.max_replacements !== undefined && count > args.max_replacements) {
    return invalidArgument(`old_string matches ${count} time(s) in ${file.path}, more than max_replacements ${args.max_replacements}; nothing was written`, {
      path: file.path,
      matches: count,
      max_replacements: args.max_replacements,
    });
  }
  const after = before.split(oldString).join(newString);
  const afterBytes = encodeFileText(after, decoded.bom);
  const change = await describeChange({ path: file.path, before, after, beforeBytes: file.content, afterBytes }, context);
  const metadata = { ...change.metadata, replacements: count, dry_run: args.dry_run === true };
  const summary = `${count} replacement${count === 1 ? '' : 's'} in ${file.path} (+${change.additions} -${change.deletions})`;
  const artifacts = change.artifacts.length > 0 ? { artifacts: change.artifacts } : {};
  if (args.dry_run === true) {
    return { output: `Dry run: would make ${summary}; nothing was written.\n${change.diff}`, metadata, ...artifacts };
  }
  if (workspace.writeFile === undefined) return { output: 'this workspace cannot write files', exitCode: 1, errorKind: { type: 'unsupported', message: 'workspace has no write capability' } };
  try {
    const written = await workspace.writeFile({ path: file.path, content: afterBytes, abortSignal, ...(workspace.capabilities.versionedWrites ? { expectedVersion: file.version } : {}) });
    return { output: `Made ${summary}.\n${change.diff}`, metadata: { ...metadata, version: written.version }, ...artifacts };
  } catch (error) {
    if (HostFailure.isHostFailure(error) && error.reason === 'Conflict') {
      return {
        output: `${file.path} changed after it was read (version ${file.version}); nothing was written. Read it again and redo the edit.`,
        exitCode: 1,
        errorKind: { type: 'version_conflict', path: file.path, expected: file.version },
      };
    }
    throw error;
  }
}

/** Non-overlapping occurrences of `needle` in `haystack`. */
function countOccurrences(haystack: string, needle: string): number {
  let count = 0;
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + needle.length)) count += 1;
  return count;
}
