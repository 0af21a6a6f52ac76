import { utf8Encoder } from './tool-support.js';

/** The UTF-8 byte order mark. */
const BOM = Uint8Array.of(0xef, 0xbb, 0xbf);

// fatal: an invalid byte must be detected, not silently turned into U+FFFD and written back.
// ignoreBOM: the BOM is kept in the decoded text so it can be split off (and restored) here.
const strictDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** A text file's content for exact rewriting. */
export interface FileText {
  /** The text without a leading byte order mark (what `read` shows, what the model quotes). */
  readonly text: string;
  /** The file starts with a UTF-8 byte order mark, to be written back in front of the new text. */
  readonly bom: boolean;
}

/**
 * Decodes a file for `edit`/`patch`: a leading UTF-8 BOM is split off (and reported, so
 * {@link encodeFileText} restores it), and `null` means the bytes are not valid UTF-8 — rewriting
 * them through a lenient decoder would replace every invalid byte with U+FFFD, corrupting parts
 * of the file the change never touched.
 */
export function decodeFileText(bytes: Uint8Array): FileText | null {
  let text: string;
  try {
    text = strictDecoder.decode(bytes);
  } catch {
    return null;
  }
  const bom = text.charCodeAt(0) === 0xfeff;
  return { text: bom ? text.slice(1) : text, bom };
}

/** Encodes text for writing, with the BOM in front when the file had one. */
export function encodeFileText(text: string, bom: boolean): Uint8Array {
  const body = utf8Encoder.encode(text);
  if (!bom) return body;
  const out = new Uint8Array(BOM.length + body.length);
  out.set(BOM);
  out.set(body, BOM.length);
  return out;
}
