// A minimal, safe Markdown renderer: the model's text becomes React elements, never HTML. Raw
// HTML in the text stays text (React escapes it); links keep only http(s) and mailto targets.
// Covers what answers use: paragraphs, headings, fenced and inline code, bold / italic, links,
// bullet and numbered lists, block quotes, rules, pipe tables, and unified diffs inside ```diff fences.
import type { ReactNode } from 'react';
import { DiffView } from './diff-view.js';

const SAFE_URL = /^(?:https?:\/\/|mailto:)/i;

/** A link target the UI may open, or null (javascript:, data:, relative, ...). */
export function safeHref(url: string): string | null {
  const trimmed = url.trim();
  return SAFE_URL.test(trimmed) ? trimmed : null;
}

// Inline tokens, leftmost first: `code`, **bold**, *em* / _em_, [text](url), bare URLs.
const INLINE = /(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)|\*\*([^*]+)\*\*|__([^_]+)__|\*([^*\s][^*]*)\*|\b_([^_\s][^_]*)_\b|\[([^\]]+)\]\(([^)\s]+)\)|(https?:\/\/[^\s<>()]+[^\s<>().,;:!?'"])/g;

/** Inline Markdown of one block as React nodes. */
export function renderInline(text: string, key = 'i'): ReactNode[] {
  const out: ReactNode[] = [];
  let last = 0;
  let n = 0;
  for (const m of text.matchAll(INLINE)) {
    const index = m.index;
    if (index > last) out.push(text.slice(last, index));
    const k = `${key}.${n++}`;
    if (m[2] !== undefined) out.push(<code key={k}>{m[2]}</code>);
    else if (m[3] !== undefined || m[4] !== undefined) out.push(<strong key={k}>{renderInline(m[3] ?? m[4] ?? '', k)}</strong>);
    else if (m[5] !== undefined || m[6] !== undefined) out.push(<em key={k}>{renderInline(m[5] ?? m[6] ?? '', k)}</em>);
    else if (m[7] !== undefined && m[8] !== undefined) {
      const href = safeHref(m[8]);
      out.push(href === null ? m[0] : <a key={k} href={href} target="_blank" rel="noopener noreferrer">{renderInline(m[7], k)}</a>);
    } else if (m[9] !== undefined) out.push(<a key={k} href={m[9]} target="_blank" rel="noopener noreferrer">{m[9]}</a>);
    last = index + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

type Block =
  | { kind: 'code'; lang: string; text: string }
  | { kind: 'heading'; level: number; text: string }
  | { kind: 'list'; ordered: boolean; start: number; items: string[] }
  | { kind: 'quote'; text: string }
  | { kind: 'rule' }
  | { kind: 'table'; head: string[]; rows: string[][] }
  | { kind: 'paragraph'; text: string };

const BULLET = /^\s{0,3}[-*+]\s+(.*)$/;
const NUMBERED = /^\s{0,3}(\d{1,9})[.)]\s+(.*)$/;
const FENCE = /^\s{0,3}(```+|~~~+)\s*([\w+-]*)/;
const TABLE_RULE = /^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$/;

/** The cells of a table row (`| a | b |` or `a | b`). */
function cells(line: string): string[] {
  return line.trim().replace(/^\|/, '').replace(/\|$/, '').split('|').map((cell) => cell.trim());
}

/** Splits Markdown into blocks (an unclosed fence runs to the end: text still streaming). */
export function parseBlocks(source: string): Block[] {
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  const blocks: Block[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] ?? '';
    const fence = FENCE.exec(line);
    if (fence !== null) {
      const marker = fence[1] ?? '```';
      const body: string[] = [];
      i += 1;
      while (i < lines.length && !(lines[i] ?? '').trimStart().startsWith(marker)) body.push(lines[i++] ?? '');
      i += 1;
      blocks.push({ kind: 'code', lang: fence[2] ?? '', text: body.join('\n') });
      continue;
    }
    if (line.trim() === '') {
      i += 1;
      continue;
    }
    const heading = /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading !== null) {
      blocks.push({ kind: 'heading', level: heading[1]?.length ?? 1, text: heading[2] ?? '' });
      i += 1;
      continue;
    }
    const rule = lines[i + 1] ?? '';
    if (line.includes('|') && TABLE_RULE.test(rule) && cells(rule).length === cells(line).length) {
      const head = cells(line);
      const rows: string[][] = [];
      i += 2;
      while (i < lines.length && (lines[i] ?? '').includes('|') && (lines[i] ?? '').trim() !== '') rows.push(cells(lines[i++] ?? ''));
      blocks.push({ kind: 'table', head, rows });
      continue;
    }
    if (/^\s{0,3}([-*_])(\s*\1){2,}\s*$/.test(line)) {
      blocks.push({ kind: 'rule' });
      i += 1;
      continue;
    }
    if (/^\s{0,3}>/.test(line)) {
      const body: string[] = [];
      while (i < lines.length && /^\s{0,3}>/.test(lines[i] ?? '')) body.push((lines[i++] ?? '').replace(/^\s{0,3}>\s?/, ''));
      blocks.push({ kind: 'quote', text: body.join('\n') });
      continue;
    }
    const numbered = NUMBERED.exec(line);
    if (BULLET.test(line) || numbered !== null) {
      const ordered = numbered !== null;
      const items: string[] = [];
      while (i < lines.length) {
        const current = lines[i] ?? '';
        const item = ordered ? NUMBERED.exec(current)?.[2] : BULLET.exec(current)?.[1];
        if (item !== undefined) items.push(item);
        else if (current.trim() !== '' && /^\s+/.test(current) && items.length > 0) items[items.length - 1] += ` ${current.trim()}`;
        else break;
        i += 1;
      }
      blocks.push({ kind: 'list', ordered, start: ordered ? Number(numbered[1]) : 1, items });
      continue;
    }
    const body: string[] = [];
    while (i < lines.length) {
      const current = lines[i] ?? '';
      if (current.trim() === '' || FENCE.test(current) || /^\s{0,3}(#{1,6}\s|>)/.test(current) || BULLET.test(current) || NUMBERED.test(current)) break;
      body.push(current);
      i += 1;
    }
    blocks.push({ kind: 'paragraph', text: body.join('\n') });
  }
  return blocks;
}

function withBreaks(text: string, key: string): ReactNode[] {
  return text.split('\n').flatMap((line, index) => (index === 0 ? renderInline(line, `${key}.${index}`) : [<br key={`${key}.br${index}`} />, ...renderInline(line, `${key}.${index}`)]));
}

function renderBlock(block: Block, key: string): ReactNode {
  switch (block.kind) {
    case 'code':
      return block.lang === 'diff' || block.lang === 'patch' ? <DiffView key={key} text={block.text} /> : <pre key={key} className="code" data-lang={block.lang || undefined}><code>{block.text}</code></pre>;
    case 'heading': {
      const Tag = (['h3', 'h3', 'h4', 'h5', 'h6', 'h6'] as const)[block.level - 1] ?? 'h6';
      return <Tag key={key}>{renderInline(block.text, key)}</Tag>;
    }
    case 'list': {
      const items = block.items.map((item, index) => <li key={`${key}.${index}`}>{renderInline(item, `${key}.${index}`)}</li>);
      return block.ordered ? <ol key={key} start={block.start}>{items}</ol> : <ul key={key}>{items}</ul>;
    }
    case 'quote':
      return <blockquote key={key}>{parseBlocks(block.text).map((inner, index) => renderBlock(inner, `${key}.${index}`))}</blockquote>;
    case 'rule':
      return <hr key={key} />;
    case 'table':
      return (
        <div key={key} className="table-wrap">
          <table>
            <thead>
              <tr>{block.head.map((cell, index) => <th key={index}>{renderInline(cell, `${key}.h${index}`)}</th>)}</tr>
            </thead>
            <tbody>
              {block.rows.map((row, r) => (
                <tr key={r}>{block.head.map((_, c) => <td key={c}>{renderInline(row[c] ?? '', `${key}.${r}.${c}`)}</td>)}</tr>
              ))}
            </tbody>
          </table>
        </div>
      );
    case 'paragraph':
      return <p key={key}>{withBreaks(block.text, key)}</p>;
    default:
      return assertNever(block);
  }
}

function assertNever(value: never): never {
  throw new Error(`unexpected block ${JSON.stringify(value)}`);
}

/** Markdown `text` as React elements (no HTML is ever parsed). */
export function Markdown({ text }: { readonly text: string }): ReactNode {
  return <div className="md">{parseBlocks(text).map((block, index) => renderBlock(block, `b${index}`))}</div>;
}
