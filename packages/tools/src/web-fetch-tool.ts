import { WEB_CLIENT_SERVICE, isWebClient } from '@a3s-lab/code-core/kernel';
import { normalizeHostName, stripSensitiveQueryParams } from '@a3s-lab/code-core/util';
import { defineTool, toolFailure } from '@a3s-lab/code-core';
import type { FromJsonSchema, Tool, ToolContext, ToolOutput, ToolParametersSchema, WebClient } from '@a3s-lab/code-core';
import { contentKind, decodeBody, parseContentType, renderDocument, stripUrlsInText, unsupportedContent } from './web-content.js';
import type { WebFetchFormat } from './web-content.js';
import { documentCacheFor } from './web-document-cache.js';
import type { WebDocument } from './web-document-cache.js';
import { pageOf } from './web-page.js';
import { statusErrorKind } from './web-status.js';
import { failureFromThrown, invalidArgument, readOnlyCapabilities, utf8Encoder } from './tool-support.js';

/** Bytes of page text per `web_fetch` call when no `max_bytes` is given. */
export const DEFAULT_WEB_FETCH_MAX_BYTES = 32 * 1024;
/** Smallest `max_bytes`. */
export const MIN_WEB_FETCH_MAX_BYTES = 1024;
/** Largest `max_bytes` (stays under the kernel's 100 KiB inline bound). */
export const MAX_WEB_FETCH_MAX_BYTES = 96 * 1024;
/** Longest URL accepted. */
export const MAX_WEB_FETCH_URL_LENGTH = 8192;
/** A document spanning several pages is also stored whole as an artifact when it is at most this big. */
export const WEB_FETCH_ARTIFACT_MAX_BYTES = 2 * 1024 * 1024;

const ACCEPT = 'text/html,application/xhtml+xml,application/json;q=0.9,text/plain;q=0.9,application/xml;q=0.8,*/*;q=0.5';

/** The JSON Schema of `web_fetch`'s arguments: what the model sees and the kernel validates. */
const PARAMETERS = {
  type: 'object',
  additionalProperties: false,
  required: ['url'],
  properties: {
    url: { type: 'string', maxLength: MAX_WEB_FETCH_URL_LENGTH, description: 'http(s) URL' },
    offset: { type: 'integer', minimum: 0, description: 'A next_offset' },
    max_bytes: { type: 'integer', minimum: MIN_WEB_FETCH_MAX_BYTES, maximum: MAX_WEB_FETCH_MAX_BYTES, description: 'Default 32768' },
    format: { enum: ['markdown', 'text', 'raw'], description: 'Default markdown' },
  },
} as const satisfies ToolParametersSchema;

/** Arguments of `web_fetch`, read from its schema. */
type WebFetchArgs = FromJsonSchema<typeof PARAMETERS>;

/**
 * Creates the `web_fetch` tool: one http(s) page as markdown (HTML converted by turndown), text,
 * or the raw body, paged by UTF-8-safe byte offsets. The network is the session's
 * {@link WebClient} service (the SDK wires the safe client); without one the tool reports
 * `unsupported`. A redirect to another host is not followed: the result names it, so fetching it
 * is a new call that permission rules such as `web_fetch(domain:docs.rs)` judge again.
 */
export function createWebFetchTool(): Tool<WebFetchArgs> {
  return defineTool({
    name: 'web_fetch',
    description: 'Fetch an http(s) URL as markdown, text or raw. Long pages: pass offset=next_offset.',
    parameters: PARAMETERS,
    capabilities: () => readOnlyCapabilities({ resumable: true, supportsPagination: true, maxParallelism: 8 }),
    permissionTarget: (args) => {
      const url = stripSensitiveQueryParams(args.url);
      let host = '';
      try {
        host = normalizeHostName(new URL(url).hostname);
      } catch {
        // An unparseable URL has no host; the tool refuses it as an invalid argument.
      }
      return { kind: 'url', url, host };
    },
    async execute(args, context) {
      const client = context.services[WEB_CLIENT_SERVICE];
      if (!isWebClient(client)) return toolFailure('web access is not configured for this session', { type: 'unsupported', message: 'no web client service' });
      const format = args.format ?? 'markdown';
      const maxBytes = args.max_bytes ?? DEFAULT_WEB_FETCH_MAX_BYTES;
      const offset = args.offset ?? 0;
      const shownUrl = stripSensitiveQueryParams(args.url);
      const cache = documentCacheFor(client);
      const key = `${format} ${shownUrl}`;
      let document = offset > 0 ? cache.get(key) : undefined;
      const cached = document !== undefined;
      if (document === undefined) {
        const fetched = await fetchDocument(client, args.url, format, context);
        if ('output' in fetched) return fetched;
        document = fetched;
        cache.set(key, document);
      }
      return renderPage(document, { shownUrl, format, offset, maxBytes, cached }, context);
    },
  });
}

async function fetchDocument(client: WebClient, url: string, format: WebFetchFormat, context: ToolContext): Promise<WebDocument | ToolOutput> {
  let response;
  try {
    response = await client.fetch({ url, headers: { accept: ACCEPT }, abortSignal: context.abortSignal });
  } catch (error) {
    return failureFromThrown(error);
  }
  const location = response.headers['location'];
  if (response.status >= 300 && response.status < 400 && location !== undefined) {
    return {
      output: `${response.url} redirects to another host: ${location}\nTo follow it, call web_fetch with url="${location}".`,
      metadata: { url: response.url, status: response.status, redirect: location },
    };
  }
  const failure = statusErrorKind(response.status, response.headers, response.url, 'web_fetch');
  if (failure !== null) {
    const detail = failure.type === 'rate_limited' && failure.retry_after_ms !== undefined ? ` (retry after ${failure.retry_after_ms} ms)` : '';
    return toolFailure(`HTTP ${response.status} from ${response.url}${detail}`, failure, { url: response.url, status: response.status });
  }
  const { mediaType, charset } = parseContentType(response.headers['content-type']);
  const kind = contentKind(mediaType, response.body);
  if (kind === 'pdf' || kind === 'binary') return unsupportedContent(kind, mediaType, response.url);
  const text = await renderDocument(decodeBody(response.body, charset, kind), kind, format, response.url, stripSensitiveQueryParams);
  return {
    bytes: utf8Encoder.encode(stripUrlsInText(text, stripSensitiveQueryParams)),
    finalUrl: response.url,
    status: response.status,
    mediaType,
    redirects: response.redirects,
    sourceTruncated: response.truncated,
    fetchedAtMs: Date.now(),
  };
}

interface PageRequest {
  readonly shownUrl: string;
  readonly format: WebFetchFormat;
  readonly offset: number;
  readonly maxBytes: number;
  readonly cached: boolean;
}

function renderPage(document: WebDocument, request: PageRequest, context: ToolContext): ToolOutput {
  const total = document.bytes.byteLength;
  if (request.offset > total || (request.offset === total && total > 0)) {
    return invalidArgument(`offset ${request.offset} is past the end of ${request.shownUrl} (${total} bytes in ${request.format} form)`);
  }
  const page = pageOf(document.bytes, request.offset, request.maxBytes);
  let artifact: string | null = null;
  if (page.start === 0 && page.nextOffset !== null && total <= WEB_FETCH_ARTIFACT_MAX_BYTES) {
    artifact = context.storeArtifact(new TextDecoder().decode(document.bytes), { mediaType: request.format === 'markdown' ? 'text/markdown' : 'text/plain' });
  }
  const end = page.nextOffset ?? total;
  const lines = [`URL: ${document.finalUrl}`, `Content: ${document.mediaType || 'unknown'} as ${request.format}, bytes ${page.start}-${end} of ${total}`, '', page.text];
  if (page.nextOffset !== null) lines.push('', `[${total - end} more bytes: call web_fetch with url="${request.shownUrl}" offset=${page.nextOffset}]`);
  if (document.sourceTruncated) lines.push('', '[the page was cut at the response size cap; its end is not available]');
  return {
    output: lines.join('\n'),
    metadata: {
      url: document.finalUrl,
      status: document.status,
      content_type: document.mediaType,
      format: request.format,
      offset: page.start,
      next_offset: page.nextOffset,
      total_bytes: total,
      truncated: page.nextOffset !== null,
      source_truncated: document.sourceTruncated,
      redirects: document.redirects,
      cached: request.cached,
      ...(artifact === null ? {} : { artifact }),
    },
  };
}
