import { utf8Boundary, utf8Decoder } from './tool-support.js';

/** One page of a document. */
export interface WebPage {
  readonly text: string;
  /** Byte offset the page starts at (a code-point boundary). */
  readonly start: number;
  /** Byte offset of the next page, or `null` at the end. */
  readonly nextOffset: number | null;
}

/**
 * The page of `bytes` starting at `offset` with at most `maxBytes` bytes. Never splits a UTF-8
 * code point (an offset inside one moves back to its start); prefers to end after a newline in
 * the last fifth of the page so continuation starts on a fresh line.
 */
export function pageOf(bytes: Uint8Array, offset: number, maxBytes: number): WebPage {
  const start = utf8Boundary(bytes, offset);
  let end = utf8Boundary(bytes, start + maxBytes);
  if (end < bytes.byteLength) {
    const newline = bytes.lastIndexOf(0x0a, end - 1);
    if (newline >= start + Math.floor(maxBytes * 0.8)) end = newline + 1;
  }
  return { text: utf8Decoder.decode(bytes.subarray(start, end)), start, nextOffset: end < bytes.byteLength ? end : null };
}
