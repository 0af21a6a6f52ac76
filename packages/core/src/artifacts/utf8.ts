/**
 * UTF-8 helpers shared by the artifact store and the kernel's output bounds. Written by hand
 * (no `Buffer`, no `node:*`) so core stays runtime-neutral and measuring a string allocates
 * nothing.
 */

/** Number of bytes `text` takes in UTF-8 (lone surrogates count as U+FFFD, 3 bytes). */
export function utf8ByteLength(text: string): number {
  let bytes = 0;
  const length = text.length;
  for (let i = 0; i < length; i += 1) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i += 1;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

/** Cheap upper bound: a UTF-16 code unit never takes more than 3 UTF-8 bytes. */
export function utf8ByteLengthUpperBound(text: string): number {
  return text.length * 3;
}

/** Result of {@link boundUtf8HeadTail}. */
export interface BoundedText {
  /** The bounded text: head, the omission marker, tail (or the original text when it fit). */
  readonly text: string;
  /** UTF-8 size of the original text. */
  readonly totalBytes: number;
  /** Bytes of the original that are not in `text` (0 when it fit). */
  readonly omittedBytes: number;
  /** True when something was omitted. */
  readonly truncated: boolean;
}

/** The marker put between head and tail; `N` is the exact number of omitted bytes. */
export function omissionMarker(omittedBytes: number): string {
  return `\n[... ${omittedBytes} bytes omitted ...]\n`;
}

/**
 * Bounds `text` to at most `maxBytes` UTF-8 bytes INCLUDING the omission marker, keeping the
 * head and the tail (half the remaining budget each) and cutting only on character boundaries.
 * The marker states exactly how many bytes of the original were dropped, so
 * `headBytes + tailBytes + omittedBytes === totalBytes` always holds.
 */
export function boundUtf8HeadTail(text: string, maxBytes: number): BoundedText {
  if (utf8ByteLengthUpperBound(text) <= maxBytes) return { text, totalBytes: utf8ByteLength(text), omittedBytes: 0, truncated: false };
  const encoder = new TextEncoder();
  const bytes = encoder.encode(text);
  const totalBytes = bytes.length;
  if (totalBytes <= maxBytes) return { text, totalBytes, omittedBytes: 0, truncated: false };
  // The marker's own length depends on the omitted count; size it for the largest possible
  // count (the whole text), which can only over-reserve by a digit or two.
  const reserve = utf8ByteLength(omissionMarker(totalBytes));
  const keep = Math.max(0, maxBytes - reserve);
  let headEnd = Math.ceil(keep / 2);
  let tailStart = totalBytes - (keep - headEnd);
  // Never cut inside a multi-byte sequence: continuation bytes look like 10xxxxxx.
  while (headEnd > 0 && (bytes[headEnd]! & 0xc0) === 0x80) headEnd -= 1;
  while (tailStart < totalBytes && (bytes[tailStart]! & 0xc0) === 0x80) tailStart += 1;
  const decoder = new TextDecoder();
  const head = decoder.decode(bytes.subarray(0, headEnd));
  const tail = decoder.decode(bytes.subarray(tailStart));
  const omittedBytes = tailStart - headEnd;
  return { text: head + omissionMarker(omittedBytes) + tail, totalBytes, omittedBytes, truncated: true };
}

/**
 * The largest index `<= index` that starts a UTF-8 code point in `bytes` (continuation bytes are
 * `10xxxxxx`), so slicing there never splits a character.
 */
export function utf8Boundary(bytes: Uint8Array, index: number): number {
  let at = Math.max(0, Math.min(index, bytes.byteLength));
  while (at > 0 && at < bytes.byteLength && (bytes[at]! & 0xc0) === 0x80) at -= 1;
  return at;
}

/**
 * Cuts `text` to at most `maxBytes` UTF-8 bytes without splitting a code point; returns the kept
 * prefix (the whole text when it fits).
 */
export function truncateUtf8(text: string, maxBytes: number): string {
  if (utf8ByteLengthUpperBound(text) <= maxBytes) return text;
  const bytes = new TextEncoder().encode(text);
  if (bytes.byteLength <= maxBytes) return text;
  return new TextDecoder().decode(bytes.subarray(0, utf8Boundary(bytes, maxBytes)));
}
