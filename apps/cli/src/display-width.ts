// Terminal display width: East Asian wide and fullwidth characters and emoji take two columns,
// combining marks and zero-width characters none. Widths of lines, spinner frames and cut
// arguments are counted in these columns, never in UTF-16 code units. The per-character widths
// come from `string-width` (Unicode's East Asian Width and emoji data, kept up to date there).
import stringWidth from 'string-width';

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

// Printable ASCII is one column per character: no segmentation needed (the common case).
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** Columns `text` takes on a terminal (no escape sequences expected: strip them first). */
export function displayWidth(text: string): number {
  if (PRINTABLE_ASCII.test(text)) return text.length;
  return stringWidth(text, { countAnsiEscapeCodes: true });
}

/**
 * `text` cut to at most `columns` display columns, ending with `…` when cut; never splits a
 * grapheme. Stops reading at the cut, so a huge text costs no more than its first `columns`.
 */
export function truncateToWidth(text: string, columns: number): string {
  if (PRINTABLE_ASCII.test(text)) return text.length <= columns ? text : `${text.slice(0, Math.max(0, columns - 1))}…`;
  let kept = '';
  let full = false;
  let width = 0;
  for (const { segment } of segmenter.segment(text)) {
    const w = stringWidth(segment, { countAnsiEscapeCodes: true });
    // The prefix that still fits beside the `…`, in case the text turns out to be too wide.
    if (!full && width + w <= columns - 1) kept += segment;
    else full = true;
    width += w;
    if (width > columns) return `${kept}…`;
  }
  return text;
}
