import { defineTool } from '@a3s-lab/code-core';
import type { FromJsonSchema, Tool, ToolContext, ToolOutput, ToolParametersSchema } from '@a3s-lab/code-core';
import { loadFile } from './load-file.js';
import { readFiles } from './read-files.js';
import { scanLineWindow, WHOLE_READ_BYTES } from './line-window.js';
import { classifyContent, continuationNote, DEFAULT_READ_LIMIT, detectImage, MAX_IMAGE_BYTES, renderWindow } from './read-render.js';
import { invalidArgument, looksBinary, readOnlyCapabilities } from './tool-support.js';

/** Default shared byte budget of one read call. */
export const DEFAULT_READ_MAX_OUTPUT_BYTES = 65536;
/** Smallest accepted `max_output_bytes`. */
export const MIN_READ_MAX_OUTPUT_BYTES = 1024;
/** Largest accepted `max_output_bytes`. */
export const MAX_READ_MAX_OUTPUT_BYTES = 98304;
/** Most members of one `files` request. */
export const MAX_READ_FILES = 32;

const offsetSchema = { type: 'integer', minimum: 0, description: '0-based first line. Default 0.' } as const;
const limitSchema = { type: 'integer', minimum: 1, maximum: DEFAULT_READ_LIMIT, description: `Lines. Default ${DEFAULT_READ_LIMIT}.` } as const;
/** The per-file entry of `files`: described once on the top-level `offset` / `limit`. */
const fileEntrySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['path'],
  properties: {
    path: { type: 'string', minLength: 1 },
    offset: { type: 'integer', minimum: 0 },
    limit: { type: 'integer', minimum: 1, maximum: DEFAULT_READ_LIMIT },
  },
} as const;

/** The refusal of a call with both `file_path` and `files`, or neither. */
const ONE_OF_PATH_OR_FILES = 'read needs exactly one of file_path (one file) or files (several files), not both and not neither';

/** Reserve for the single-file continuation note. */
const SINGLE_RESERVED_BYTES = 128;

/** The JSON Schema of `read`'s arguments: what the model sees and the kernel validates. */
const PARAMETERS = {
  type: 'object',
  additionalProperties: false,
  properties: {
    file_path: { type: 'string', minLength: 1, description: 'Workspace-relative path.' },
    offset: offsetSchema,
    limit: limitSchema,
    files: {
      type: 'array',
      minItems: 1,
      maxItems: MAX_READ_FILES,
      description: 'Instead of file_path: files in request order.',
      items: fileEntrySchema,
    },
    format: {
      type: 'string',
      enum: ['numbered', 'raw'],
      description: 'Default numbered. raw: exact text, no numbers or byte budget (file_path only).',
    },
    max_output_bytes: {
      type: 'integer',
      minimum: MIN_READ_MAX_OUTPUT_BYTES,
      maximum: MAX_READ_MAX_OUTPUT_BYTES,
      description: `Response byte budget. Default ${DEFAULT_READ_MAX_OUTPUT_BYTES}.`,
    },
  },
} as const satisfies ToolParametersSchema;

/** Arguments of `read`, read from its schema. */
type ReadArgs = FromJsonSchema<typeof PARAMETERS>;

/**
 * Creates the `read` tool: one file (`file_path`, `offset`, `limit`) or up to 32 known files in
 * one bounded response (`files`). Lines come numbered like `cat -n`; images come back as
 * attachments; other binary files are described, not dumped.
 */
export function createReadTool(): Tool<ReadArgs> {
  return defineTool({
    name: 'read',
    description:
      'Read files with line numbers (cat -n): file_path (+offset, limit), or several known files. A cut response names how to continue ' +
      '(in files mode: metadata.batch.continuation as files). Images come back as attachments.',
    parameters: PARAMETERS,
    requires: ['read'],
    capabilities: () => readOnlyCapabilities({ resumable: true, supportsPagination: true }),
    permissionTarget: (args) => ({ kind: 'paths', paths: args.files !== undefined ? args.files.map((file) => file.path) : args.file_path !== undefined ? [args.file_path] : [] }),
    async execute(args, context) {
      const maxOutputBytes = args.max_output_bytes ?? DEFAULT_READ_MAX_OUTPUT_BYTES;
      const { file_path: path, files } = args;
      if (files !== undefined) {
        if (path !== undefined) return invalidArgument(ONE_OF_PATH_OR_FILES);
        if (args.offset !== undefined || args.limit !== undefined) {
          return invalidArgument('offset and limit apply to file_path; in files mode give them per entry ({path, offset, limit})');
        }
        if (args.format === 'raw') return invalidArgument('format raw reads one file: use file_path');
        return readFiles(files, maxOutputBytes, context);
      }
      if (path === undefined) return invalidArgument(ONE_OF_PATH_OR_FILES);
      if (args.format === 'raw') return readRaw(path, args.offset, args.limit, context);
      if (args.format !== undefined && args.format !== 'numbered') return invalidArgument(`unknown format '${String(args.format)}'`);
      return readSingle(path, args.offset ?? 0, args.limit ?? DEFAULT_READ_LIMIT, maxOutputBytes, context);
    },
  });
}

async function readSingle(path: string, offset: number, limit: number, maxOutputBytes: number, context: ToolContext): Promise<ToolOutput> {
  // Never more than WHOLE_READ_BYTES in memory: a larger file is streamed for its lines.
  const loaded = await loadFile(context.workspace, path, context.abortSignal, { start: 0, length: WHOLE_READ_BYTES });
  if (!loaded.ok) return loaded.failure;
  const { file } = loaded;
  if (file.content.byteLength < file.size) return readLarge(file.path, file.size, file.content, offset, limit, maxOutputBytes, context);
  const content = classifyContent(file.content, context.redact?.bind(context));
  if (content.kind === 'image') {
    if (file.size > MAX_IMAGE_BYTES) {
      return { output: `${file.path}: image ${content.mediaType}, ${file.size} bytes (larger than ${MAX_IMAGE_BYTES} bytes, not attached)`, metadata: { path: file.path, media_type: content.mediaType, bytes: file.size } };
    }
    return {
      output: `${file.path}: image ${content.mediaType}, ${file.size} bytes (attached)`,
      attachments: [{ mediaType: content.mediaType, data: file.content, path: file.path }],
      metadata: { path: file.path, media_type: content.mediaType, bytes: file.size },
    };
  }
  if (content.kind === 'binary') {
    return { output: `${file.path}: binary file, ${file.size} bytes (not shown)`, metadata: { path: file.path, binary: true, bytes: file.size } };
  }
  const total = content.lines.length;
  if (total === 0) return { output: `${file.path}: empty file (0 lines)`, metadata: { path: file.path, total_lines: 0, offset, lines_shown: 0, next_offset: null, truncated: false } };
  if (offset >= total) return invalidArgument(`offset ${offset} is past the end of ${file.path} (${total} lines; the last offset is ${total - 1})`);
  const window = renderWindow(content.lines, offset, limit, maxOutputBytes - SINGLE_RESERVED_BYTES, true);
  const next = window.nextOffset < total ? window.nextOffset : null;
  const output = next === null ? window.text : window.text + continuationNote(total - next, next);
  return {
    output,
    metadata: { path: file.path, total_lines: total, offset, lines_shown: window.linesShown, next_offset: next, truncated: window.stoppedByBudget && window.nextOffset < Math.min(total, offset + limit) },
  };
}

/** `readSingle` for a file larger than {@link WHOLE_READ_BYTES}: `head` is its first window. */
async function readLarge(path: string, size: number, head: Uint8Array, offset: number, limit: number, maxOutputBytes: number, context: ToolContext): Promise<ToolOutput> {
  const image = detectImage(head);
  if (image !== null) return { output: `${path}: image ${image}, ${size} bytes (larger than ${MAX_IMAGE_BYTES} bytes, not attached)`, metadata: { path, media_type: image, bytes: size } };
  if (looksBinary(head)) return { output: `${path}: binary file, ${size} bytes (not shown)`, metadata: { path, binary: true, bytes: size } };
  const window = await scanLineWindow(context.workspace, path, size, offset, limit, context.abortSignal);
  if (window.lines.length === 0) {
    return invalidArgument(`offset ${offset} is past the end of ${path}${window.totalLines === null ? '' : ` (${window.totalLines} lines; the last offset is ${window.totalLines - 1})`}`);
  }
  const redact = context.redact?.bind(context);
  const lines = redact === undefined ? window.lines : window.lines.map((line) => redact(line));
  const rendered = renderWindow(lines, offset, limit, maxOutputBytes - SINGLE_RESERVED_BYTES, true, { firstLine: offset, lengths: window.lengths });
  const shownEnd = offset + window.lines.length;
  const next = rendered.nextOffset < shownEnd || window.more ? rendered.nextOffset : null;
  const remaining = window.totalLines === null ? null : window.totalLines - rendered.nextOffset;
  const note = next === null ? '' : remaining === null ? `... more lines; call read with offset=${next}\n` : continuationNote(remaining, next);
  return {
    output: rendered.text + note,
    metadata: { path, total_lines: window.totalLines, bytes: size, offset, lines_shown: rendered.linesShown, next_offset: next, truncated: rendered.stoppedByBudget, streamed: true },
  };
}

/**
 * Raw mode: the exact text (line endings kept). Large results are bounded by the kernel, which
 * keeps the whole text as an artifact; hosts read it back from there.
 */
async function readRaw(path: string, offset: number | undefined, limit: number | undefined, context: ToolContext): Promise<ToolOutput> {
  const loaded = await loadFile(context.workspace, path, context.abortSignal, { start: 0, length: WHOLE_READ_BYTES });
  if (!loaded.ok) return loaded.failure;
  const { file } = loaded;
  if (file.content.byteLength < file.size) return invalidArgument(`${file.path} has ${file.size} bytes; format raw reads files up to ${WHOLE_READ_BYTES} bytes (use the numbered format with offset/limit)`);
  const content = classifyContent(file.content);
  if (content.kind !== 'text') return invalidArgument(`${file.path} is not a text file (${content.kind}); format raw returns text only`);
  // ignoreBOM keeps a byte order mark in the text: raw means exact, and writing the text back
  // must give the same bytes.
  const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(file.content);
  if (offset === undefined && limit === undefined) {
    return { output: text, metadata: { path: file.path, bytes: file.size, raw: true, total_lines: content.lines.length } };
  }
  const lines = text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
  const start = offset ?? 0;
  if (start > 0 && start >= lines.length) return invalidArgument(`offset ${start} is past the end of ${file.path} (${lines.length} lines)`);
  const end = limit === undefined ? lines.length : Math.min(lines.length, start + limit);
  return {
    output: lines.slice(start, end).join(''),
    metadata: { path: file.path, raw: true, total_lines: lines.length, offset: start, lines_shown: end - start, next_offset: end < lines.length ? end : null },
  };
}
