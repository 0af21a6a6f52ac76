import { byteLength, looksBinary, truncateUtf8, utf8Decoder } from './tool-support.js';

/** Lines shown by one read when no `limit` is given (and the largest `limit`). */
export const DEFAULT_READ_LIMIT = 2000;
/** Longer lines are cut at this many characters, with a marker. */
export const MAX_LINE_CHARS = 2000;
/** Images larger than this are reported, not attached. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

/** What a file's bytes are, for rendering. */
export type FileContentKind =
  | { readonly kind: 'image'; readonly mediaType: string }
  | { readonly kind: 'binary' }
  | { readonly kind: 'text'; readonly lines: readonly string[] };

/**
 * Classifies bytes: an image by magic number, binary by a NUL byte, text otherwise. `redact` is
 * applied to the whole text BEFORE it is split and later cut into lines and budgets, so a secret
 * straddling a cut is redacted whole.
 */
export function classifyContent(content: Uint8Array, redact?: (text: string) => string): FileContentKind {
  const mediaType = detectImage(content);
  if (mediaType !== null) return { kind: 'image', mediaType };
  if (looksBinary(content)) return { kind: 'binary' };
  const text = utf8Decoder.decode(content);
  return { kind: 'text', lines: splitDisplayLines(redact === undefined ? text : redact(text)) };
}

/** The image media type named by the file's magic bytes (png, jpeg, gif, webp), or null. */
export function detectImage(bytes: Uint8Array): string | null {
  const starts = (...values: number[]): boolean => values.every((value, index) => bytes[index] === value);
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (starts(0x47, 0x49, 0x46, 0x38) && (bytes[4] === 0x37 || bytes[4] === 0x39) && bytes[5] === 0x61) return 'image/gif';
  if (starts(0x52, 0x49, 0x46, 0x46) && bytes[8] === 0x57 && bytes[9] === 0x45 && bytes[10] === 0x42 && bytes[11] === 0x50) return 'image/webp';
  return null;
}

/** Lines for display: terminators (`\n`, `\r\n`) removed; a final newline does not add a line. */
export function splitDisplayLines(text: string): string[] {
  if (text.length === 0) return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines.map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
}

/**
 * One `cat -n` style line: right-aligned 1-based number, a tab, the (cut) text. `fullLength` is
 * the line's real length when `text` is already a prefix of it (a line of a streamed file).
 */
export function renderLine(lineNumber: number, text: string, fullLength = text.length): string {
  let shown = text;
  if (fullLength > MAX_LINE_CHARS) {
    let cut = MAX_LINE_CHARS;
    // Never leave half of a surrogate pair behind.
    if ((text.charCodeAt(cut - 1) & 0xfc00) === 0xd800) cut -= 1;
    shown = `${text.slice(0, cut)} ... [line truncated: ${fullLength - cut} more characters]`;
  }
  return `${String(lineNumber).padStart(6, ' ')}\t${shown}\n`;
}

/** The continuation note naming the next offset. */
export function continuationNote(remainingLines: number, nextOffset: number): string {
  return `... ${remainingLines} more line${remainingLines === 1 ? '' : 's'}; call read with offset=${nextOffset}\n`;
}

/** A rendered window of lines. */
export interface RenderedWindow {
  readonly text: string;
  readonly bytes: number;
  /** 0-based offset of the first line NOT shown. */
  readonly nextOffset: number;
  readonly linesShown: number;
  /** The byte budget (not the line limit) ended the window. */
  readonly stoppedByBudget: boolean;
}

/**
 * Renders lines `[offset, offset + limit)` while they fit in `budgetBytes`. With `forceProgress`
 * a first line that does not fit is cut to fit, so a continuation always moves forward. With
 * `window`, `lines` start at file line `window.firstLine` (0-based) instead of 0.
 */
export function renderWindow(
  lines: readonly string[],
  offset: number,
  limit: number,
  budgetBytes: number,
  forceProgress: boolean,
  window?: { readonly firstLine: number; readonly lengths: readonly number[] },
): RenderedWindow {
  // `window`: `lines` hold only lines firstLine... of the file (a streamed large file).
  const base = window?.firstLine ?? 0;
  const end = Math.min(base + lines.length, offset + limit);
  const parts: string[] = [];
  let bytes = 0;
  let index = offset;
  for (; index < end; index += 1) {
    const text = lines[index - base] as string;
    const line = renderLine(index + 1, text, window?.lengths[index - base] ?? text.length);
    const size = byteLength(line);
    if (bytes + size > budgetBytes) {
      if (parts.length === 0 && forceProgress && budgetBytes > 64) {
        const marker = ' ... [cut to fit the output budget]\n';
        const cut = `${truncateUtf8(line, budgetBytes - byteLength(marker))}${marker}`;
        parts.push(cut);
        bytes += byteLength(cut);
        index += 1;
      }
      return { text: parts.join(''), bytes, nextOffset: index, linesShown: index - offset, stoppedByBudget: true };
    }
    parts.push(line);
    bytes += size;
  }
  return { text: parts.join(''), bytes, nextOffset: index, linesShown: index - offset, stoppedByBudget: false };
}
