const encoder = new TextEncoder();

/** UTF-8 byte length of `text` (lone surrogates count as the 3 bytes of U+FFFD). */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && index + 1 < text.length && (text.charCodeAt(index + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      index += 1;
    } else bytes += 3;
  }
  return bytes;
}

/** The longest prefix of `text` whose UTF-8 encoding fits in `maxBytes` (never splits a character). */
export function truncateUtf8(text: string, maxBytes: number): string {
  if (utf8Length(text) <= maxBytes) return text;
  const bytes = encoder.encode(text).subarray(0, Math.max(0, maxBytes));
  // `fatal: false` turns a split trailing sequence into U+FFFD; drop it to stay within bounds.
  const decoded = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  return decoded.endsWith('\uFFFD') ? decoded.slice(0, -1) : decoded;
}
