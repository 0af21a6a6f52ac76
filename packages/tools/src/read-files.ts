import type { ToolAttachment, ToolContext, ToolOutput } from '@a3s-lab/code-core';
import { toolFailure } from '@a3s-lab/code-core';
import { loadFile } from './load-file.js';
import { WHOLE_READ_BYTES } from './line-window.js';
import { invalidArgument } from './tool-support.js';
import type { LoadedFile } from './load-file.js';
import { classifyContent, continuationNote, DEFAULT_READ_LIMIT, MAX_IMAGE_BYTES, renderWindow } from './read-render.js';
import { byteLength, truncateUtf8 } from './tool-support.js';

/** One member of a `read.files` request. */
export interface ReadFileRequest {
  readonly path: string;
  /** 0-based first line. Default 0. */
  readonly offset?: number;
  /** Lines to show, 1..2000. Default 2000. */
  readonly limit?: number;
}

/** Per-member outcome reported in `metadata.files`. */
interface MemberReport {
  path: string;
  status: 'ok' | 'partial' | 'pending' | 'error' | 'image' | 'binary';
  offset: number;
  lines_shown: number;
  total_lines?: number;
  next_offset?: number | null;
  error?: unknown;
}

/** Bytes kept back from the budget for a member's continuation note plus the closing trailer. */
const RESERVED_BYTES = 256;

/**
 * `read` in files mode: members rendered in request order under ONE byte budget that includes
 * headers and continuation text. A member that cannot be read fails alone. When the budget runs
 * out, `metadata.batch.continuation` is a ready `files` value resuming exactly where it stopped.
 */
export async function readFiles(requests: readonly ReadFileRequest[], maxOutputBytes: number, context: ToolContext): Promise<ToolOutput> {
  // Each member at most WHOLE_READ_BYTES: a larger one is refused alone (read it with file_path).
  const loaded: LoadedFile[] = await Promise.all(
    requests.map(async (request): Promise<LoadedFile> => {
      const member = await loadFile(context.workspace, request.path, context.abortSignal, { start: 0, length: WHOLE_READ_BYTES });
      if (!member.ok || member.file.content.byteLength >= member.file.size) return member;
      return { ok: false, failure: invalidArgument(`${member.file.path} has ${member.file.size} bytes, more than files mode reads (${WHOLE_READ_BYTES}); read it with file_path and offset/limit`) };
    }),
  );
  const budget = maxOutputBytes - RESERVED_BYTES;
  const parts: string[] = [];
  const attachments: ToolAttachment[] = [];
  const reports: MemberReport[] = [];
  const continuation: ReadFileRequest[] = [];
  const failed: number[] = [];
  let used = 0;
  let exhausted = false;
  let progress = false;
  const append = (text: string): void => {
    parts.push(text);
    used += byteLength(text);
  };
  for (const [index, request] of requests.entries()) {
    const offset = request.offset ?? 0;
    const limit = request.limit ?? DEFAULT_READ_LIMIT;
    const member = loaded[index] as LoadedFile;
    const header = `${used > 0 ? '\n' : ''}==> ${member.ok ? member.file.path : request.path} <==\n`;
    if (exhausted || used + byteLength(header) > budget) {
      exhausted = true;
      continuation.push(request);
      reports.push({ path: request.path, status: 'pending', offset, lines_shown: 0 });
      continue;
    }
    append(header);
    if (!member.ok) {
      failed.push(index);
      append(truncateUtf8(`error: ${member.failure.output}\n`, Math.max(0, budget - used)));
      reports.push({ path: request.path, status: 'error', offset, lines_shown: 0, error: member.failure.errorKind });
      progress = true;
      continue;
    }
    const { file } = member;
    const content = classifyContent(file.content, context.redact?.bind(context));
    if (content.kind === 'image') {
      const attach = file.size <= MAX_IMAGE_BYTES;
      if (attach) attachments.push({ mediaType: content.mediaType, data: file.content, path: file.path });
      append(`[image ${content.mediaType}, ${file.size} bytes${attach ? ', attached' : `, larger than ${MAX_IMAGE_BYTES} bytes so not attached`}]\n`);
      reports.push({ path: file.path, status: 'image', offset, lines_shown: 0 });
      progress = true;
      continue;
    }
    if (content.kind === 'binary') {
      append(`[binary file, ${file.size} bytes, not shown]\n`);
      reports.push({ path: file.path, status: 'binary', offset, lines_shown: 0 });
      progress = true;
      continue;
    }
    const total = content.lines.length;
    if (offset > 0 && offset >= total) {
      failed.push(index);
      const message = `offset ${offset} is past the end of ${file.path} (${total} lines)`;
      append(`error: ${message}\n`);
      reports.push({ path: file.path, status: 'error', offset, lines_shown: 0, total_lines: total, error: { type: 'invalid_argument', message } });
      progress = true;
      continue;
    }
    if (total === 0) {
      append('(empty file)\n');
      reports.push({ path: file.path, status: 'ok', offset, lines_shown: 0, total_lines: 0, next_offset: null });
      progress = true;
      continue;
    }
    const window = renderWindow(content.lines, offset, limit, budget - used, !progress);
    append(window.text);
    if (window.linesShown > 0) progress = true;
    const end = Math.min(total, offset + limit);
    const next = window.nextOffset < total ? window.nextOffset : null;
    if (next !== null) append(continuationNote(total - window.nextOffset, window.nextOffset));
    if (window.stoppedByBudget && window.nextOffset < end) {
      exhausted = true;
      const shown = window.nextOffset - offset;
      continuation.push({ path: request.path, offset: window.nextOffset, ...(request.limit === undefined ? {} : { limit: request.limit - shown }) });
      reports.push({ path: file.path, status: 'partial', offset, lines_shown: window.linesShown, total_lines: total, next_offset: window.nextOffset });
    } else {
      reports.push({ path: file.path, status: 'ok', offset, lines_shown: window.linesShown, total_lines: total, next_offset: next });
    }
  }
  if (exhausted) {
    append(`\n[output budget of ${maxOutputBytes} bytes reached; ${continuation.length} file(s) not finished; pass metadata.batch.continuation as files to continue]\n`);
  }
  const metadata = {
    batch: { truncated: exhausted, continuation: exhausted ? continuation : null, failed, total: requests.length, output_bytes: used, max_output_bytes: maxOutputBytes },
    files: reports,
  };
  if (failed.length === requests.length) {
    return { ...toolFailure(parts.join(''), { type: 'partial_failure', failed, total: requests.length }, metadata) };
  }
  return { output: parts.join(''), metadata, ...(attachments.length > 0 ? { attachments } : {}) };
}
