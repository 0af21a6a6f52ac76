import type { WorkspaceBackend } from '@a3s-lab/code-core';

/** Files up to this size are read whole; larger ones are read in windows (8 MiB). */
export const WHOLE_READ_BYTES = 8 * 1024 * 1024;
/** Bytes fetched per window while scanning a large file for lines (1 MiB). */
export const SCAN_CHUNK_BYTES = 1024 * 1024;
/** Characters kept of one line while scanning (the rest is counted, not stored). */
export const MAX_SCANNED_LINE_CHARS = 64 * 1024;

/** Lines `[offset, offset + limit)` of a large file, found by streaming it in windows. */
export interface LineWindow {
  /** The lines (terminators removed; each cut at {@link MAX_SCANNED_LINE_CHARS} characters). */
  readonly lines: readonly string[];
  /** Full length in characters of each line (for the "more characters" note). */
  readonly lengths: readonly number[];
  /** True when the file has lines after the window. */
  readonly more: boolean;
  /** Lines in the file, when the scan reached its end; `null` when it stopped early. */
  readonly totalLines: number | null;
}

/**
 * Scans a file of `size` bytes through `readFile` ranges of {@link SCAN_CHUNK_BYTES}, decoding
 * UTF-8 incrementally and keeping only the requested lines: memory stays bounded by one chunk
 * plus the window, whatever the file's size. Stops as soon as the window is full and one more
 * line is known to exist.
 */
export async function scanLineWindow(workspace: WorkspaceBackend, path: string, size: number, offset: number, limit: number, abortSignal: AbortSignal): Promise<LineWindow> {
  const decoder = new TextDecoder('utf-8');
  const lines: string[] = [];
  const lengths: number[] = [];
  let index = 0;
  let current = '';
  let currentLength = 0;
  const finishLine = (): void => {
    if (index >= offset && index < offset + limit) {
      lines.push(current.endsWith('\r') ? current.slice(0, -1) : current);
      lengths.push(current.endsWith('\r') ? currentLength - 1 : currentLength);
    }
    index += 1;
    current = '';
    currentLength = 0;
  };
  const append = (text: string): void => {
    currentLength += text.length;
    if (current.length < MAX_SCANNED_LINE_CHARS) current += text.slice(0, MAX_SCANNED_LINE_CHARS - current.length);
  };
  for (let position = 0; position < size; position += SCAN_CHUNK_BYTES) {
    if (abortSignal.aborted) throw abortSignal.reason instanceof Error ? abortSignal.reason : new Error('aborted');
    const file = await workspace.readFile({ path, abortSignal, range: { start: position, length: SCAN_CHUNK_BYTES } });
    if (file === null) break;
    // A backend that ignores ranges returns the whole file: take this window of it.
    const chunk = file.content.byteLength > SCAN_CHUNK_BYTES ? file.content.subarray(position, position + SCAN_CHUNK_BYTES) : file.content;
    if (chunk.byteLength === 0) break;
    const text = decoder.decode(chunk, { stream: true });
    let start = 0;
    for (let newline = text.indexOf('\n'); newline !== -1; newline = text.indexOf('\n', start)) {
      append(text.slice(start, newline));
      finishLine();
      start = newline + 1;
      if (index > offset + limit) return { lines, lengths, more: true, totalLines: null };
    }
    append(text.slice(start));
  }
  append(decoder.decode());
  if (currentLength > 0) finishLine();
  return { lines, lengths, more: false, totalLines: index };
}
