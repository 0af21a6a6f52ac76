import { toolFailure } from '@a3s-lab/code-core';
import type { ToolOutput } from '@a3s-lab/code-core';
import { looksBinary } from './tool-support.js';

/** What `web_fetch` returns a page as: readable markdown, plain text, or the body as sent. */
export type WebFetchFormat = 'markdown' | 'text' | 'raw';

/** How a response body is treated, from its content type (sniffed when the type is missing). */
export type WebContentKind = 'html' | 'text' | 'pdf' | 'binary';

/** `%PDF-`: how a PDF starts, whatever its declared type. */
const PDF_MAGIC = [0x25, 0x50, 0x44, 0x46, 0x2d];

const TEXT_TYPES = /^(text\/|application\/(json|ld\+json|xml|javascript|ecmascript|x-javascript|x-yaml|yaml|toml|x-sh|graphql|sql|x-ndjson|csv|rss\+xml|atom\+xml|problem\+json)$)|\+(json|xml)$/;

/** The media type (lower-case, no parameters) and charset of a `content-type` header. */
export function parseContentType(header: string | undefined): { readonly mediaType: string; readonly charset: string | undefined } {
  const [type = '', ...parameters] = (header ?? '').split(';');
  const charset = parameters.map((parameter) => /^\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(parameter)?.[1]).find((value) => value !== undefined);
  return { mediaType: type.trim().toLowerCase(), charset: charset?.toLowerCase() };
}

/** Classifies a body; a missing or generic type is sniffed (NUL bytes: binary; `<html`: HTML). */
export function contentKind(mediaType: string, body: Uint8Array): WebContentKind {
  if (mediaType === 'text/html' || mediaType === 'application/xhtml+xml') return 'html';
  if (mediaType === 'application/pdf') return 'pdf';
  if (TEXT_TYPES.test(mediaType)) return 'text';
  if (mediaType === '' || mediaType === 'application/octet-stream' || mediaType === 'binary/octet-stream') {
    if (PDF_MAGIC.every((byte, index) => body[index] === byte)) return 'pdf';
    if (looksBinary(body)) return 'binary';
    const head = new TextDecoder().decode(body.subarray(0, 512)).trimStart().toLowerCase();
    return head.startsWith('<!doctype html') || head.startsWith('<html') ? 'html' : 'text';
  }
  return 'binary';
}

/** Decodes a body with its declared charset, an HTML `<meta charset>`, or UTF-8. */
export function decodeBody(body: Uint8Array, charset: string | undefined, kind: WebContentKind): string {
  let label = charset;
  if (label === undefined && kind === 'html') {
    const head = new TextDecoder('latin1').decode(body.subarray(0, 2048));
    label = /<meta[^>]+charset\s*=\s*["']?([\w-]+)/i.exec(head)?.[1]?.toLowerCase();
  }
  try {
    return new TextDecoder(label ?? 'utf-8').decode(body);
  } catch {
    // An unknown label (RangeError) falls back to UTF-8 rather than failing the page.
    return new TextDecoder('utf-8').decode(body);
  }
}

/** A typed `unsupported` failure for content that cannot be shown as text. */
export function unsupportedContent(kind: 'pdf' | 'binary', mediaType: string, url: string): ToolOutput {
  const what = kind === 'pdf' ? 'a PDF (text extraction is not supported yet)' : `binary content (${mediaType || 'unknown type'})`;
  const message = `unsupported_content: ${url} is ${what}; web_fetch returns text, HTML, JSON and XML only`;
  return toolFailure(message, { type: 'unsupported', message }, { url, content_type: mediaType, reason: 'unsupported_content' });
}

/**
 * The document text in `format`: HTML becomes markdown or text; other text passes through. The
 * converter (turndown, htmlparser2) is loaded on first use, so sessions that never fetch a page
 * do not pay for importing it.
 */
export async function renderDocument(text: string, kind: 'html' | 'text', format: WebFetchFormat, baseUrl: string, rewriteUrl: (url: string) => string): Promise<string> {
  if (kind !== 'html' || format === 'raw') return text;
  const { htmlToMarkdown, htmlToText } = await import('./html-to-markdown.js');
  return format === 'markdown' ? htmlToMarkdown(text, baseUrl, rewriteUrl) : htmlToText(text);
}

const URL_IN_TEXT = /https?:\/\/[^\s<>"'()[\]`]+\?[^\s<>"'()[\]`]+/g;

/** `text` with sensitive query parameters removed from every URL in it (links the model would see). */
export function stripUrlsInText(text: string, strip: (url: string) => string): string {
  return text.replace(URL_IN_TEXT, (url) => strip(url));
}
