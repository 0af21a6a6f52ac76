import TurndownService from 'turndown';
import { parseDocument, DomUtils } from 'htmlparser2';

/** Elements whose content is never page text. */
const NON_CONTENT = ['script', 'style', 'noscript', 'template', 'svg', 'canvas', 'iframe', 'object', 'embed', 'head'] as const;

let service: TurndownService | undefined;
// Conversion is synchronous, so the link rule can read the base of the document being converted.
let currentBase: URL | null = null;
let currentRewrite: (url: string) => string = (url) => url;

/**
 * Readable markdown of an HTML document, by `turndown` (ATX headings, fenced code, `-` bullets):
 * scripts, styles, the head and embedded objects are dropped; the `<title>` becomes the first
 * heading; link and image URLs are made absolute against `baseUrl` (so the model can fetch them)
 * and passed through `rewriteUrl` (which strips sensitive query parameters).
 */
export function htmlToMarkdown(html: string, baseUrl: string, rewriteUrl: (url: string) => string): string {
  service ??= createService();
  const title = /<title[^>]*>([^<]{1,300})<\/title>/i.exec(html)?.[1]?.trim();
  currentBase = URL.canParse(baseUrl) ? new URL(baseUrl) : null;
  currentRewrite = rewriteUrl;
  let markdown: string;
  try {
    markdown = service.turndown(html).trim();
  } finally {
    currentBase = null;
  }
  const heading = title === undefined || title === '' ? '' : `# ${decodeEntities(title)}`;
  if (heading === '' || markdown.startsWith(`${heading}\n`) || markdown === heading) return markdown;
  return `${heading}\n\n${markdown}`;
}

function absolute(href: string): string {
  if (currentBase === null || href.startsWith('#')) return href;
  try {
    const url = new URL(href, currentBase);
    return url.protocol === 'http:' || url.protocol === 'https:' ? currentRewrite(url.toString()) : href;
  } catch {
    return href;
  }
}

/** The visible text of an HTML document: non-content elements dropped, blank runs collapsed. */
export function htmlToText(html: string): string {
  const document = parseDocument(html);
  for (const node of DomUtils.findAll((element) => (NON_CONTENT as readonly string[]).includes(element.name), document.children)) DomUtils.removeElement(node);
  return DomUtils.textContent(document)
    .split('\n')
    .map((line) => line.replace(/[ \t\r\f\v]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

function createService(): TurndownService {
  const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-', emDelimiter: '_' });
  turndown.remove([...NON_CONTENT, 'title'] as unknown as TurndownService.Filter);
  turndown.addRule('absoluteLink', {
    filter: (node) => node.nodeName === 'A' && node.getAttribute('href') !== null,
    replacement: (content, node) => {
      const href = absolute((node as { getAttribute(name: string): string | null }).getAttribute('href') ?? '');
      const text = content.trim();
      return text === '' ? '' : `[${text}](${href.replace(/[()]/g, (char) => (char === '(' ? '%28' : '%29'))})`;
    },
  });
  turndown.addRule('absoluteImage', {
    filter: 'img',
    replacement: (_content, node) => {
      const element = node as { getAttribute(name: string): string | null };
      const src = element.getAttribute('src');
      if (src === null || src === '' || src.startsWith('data:')) return '';
      return `![${(element.getAttribute('alt') ?? '').replace(/[[\]\n]/g, ' ')}](${absolute(src)})`;
    },
  });
  return turndown;
}

function decodeEntities(text: string): string {
  return DomUtils.textContent(parseDocument(text));
}
