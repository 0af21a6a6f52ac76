import TurndownService from 'turndown';
import { parseDocument, DomUtils } from 'htmlparser2';

/** Elements whose content is never page text. */
const NON_CONTENT = ['script', 'style', 'noscript', 'template', 'svg', 'canvas', 'iframe', 'object', 'embed', 'head'] as const;

let service: TurndownService | undefined;

/**
 * Readable markdown of an HTML document, by `turndown` (ATX headings, fenced code, `-` bullets):
 * scripts, styles, the head and embedded objects are dropped; the `<title>` becomes a first-level
 * heading when the body does not start with one.
 */
export function htmlToMarkdown(html: string): string {
  service ??= createService();
  const title = /<title[^>]*>([^<]{1,300})<\/title>/i.exec(html)?.[1]?.trim();
  const markdown = service.turndown(html).trim();
  if (title === undefined || title === '' || markdown.startsWith('# ')) return markdown;
  return `# ${decodeEntities(title)}\n\n${markdown}`;
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
  return turndown;
}

function decodeEntities(text: string): string {
  return DomUtils.textContent(parseDocument(text));
}
