import { invalidArgumentError } from './tool-support.js';
import type { Hunk, HunkLine } from './unified-diff-parse.js';

interface FileLine {
  readonly text: string;
  /** `\n`, `\r\n`, or `` for a last line without a newline. */
  readonly eol: string;
}

/** Line-ending style of a text: uniform LF, uniform CRLF, mixed, or none (no newline at all). */
export type EolStyle = 'lf' | 'crlf' | 'mixed' | 'none';

/** Splits text into lines with their terminators. */
function toFileLines(text: string): FileLine[] {
  const lines: FileLine[] = [];
  let start = 0;
  for (;;) {
    const newline = text.indexOf('\n', start);
    if (newline === -1) break;
    const crlf = newline > start && text.charCodeAt(newline - 1) === 13;
    lines.push({ text: text.slice(start, crlf ? newline - 1 : newline), eol: crlf ? '\r\n' : '\n' });
    start = newline + 1;
  }
  if (start < text.length) lines.push({ text: text.slice(start), eol: '' });
  return lines;
}

/** Detects the line-ending style of `text`. */
export function detectEol(text: string): EolStyle {
  const crlf = text.split('\r\n').length - 1;
  const lf = text.split('\n').length - 1 - crlf;
  if (crlf === 0 && lf === 0) return 'none';
  if (crlf === 0) return 'lf';
  if (lf === 0) return 'crlf';
  return 'mixed';
}

/**
 * Applies parsed hunks to `before` and returns the new text, or throws an `invalid_argument`
 * CodeError naming the hunk and line that failed. Validation is total and happens before the
 * caller writes anything: hunk order and overlap, old AND new start positions, every context
 * and removed line compared exactly (whitespace included), and no-newline markers checked
 * against the file. Added lines take the file's line ending (CRLF files stay CRLF).
 */
export function applyHunks(path: string, before: string, hunks: readonly Hunk[], diffUsesCrlf: boolean): string {
  const lines = toFileLines(before);
  const style = detectEol(before);
  const newEol = style === 'crlf' || (style === 'none' && diffUsesCrlf) || (style === 'mixed' && lines.filter((l) => l.eol === '\r\n').length * 2 > lines.length) ? '\r\n' : '\n';
  const out: FileLine[] = [];
  let cursor = 0;
  for (const hunk of hunks) {
    const start = hunk.oldCount === 0 ? hunk.oldStart : hunk.oldStart - 1;
    if ((hunk.oldCount > 0 && hunk.oldStart < 1) || start + hunk.oldCount > lines.length) {
      throw invalidArgumentError(`hunk ${hunk.index} (-${hunk.oldStart},${hunk.oldCount}) reaches past the end of ${path}, which has ${lines.length} line(s); the patch is stale`, { hunk: hunk.index });
    }
    if (start < cursor) throw invalidArgumentError(`hunk ${hunk.index} overlaps or precedes the previous hunk; hunks must be in file order`, { hunk: hunk.index });
    for (let i = cursor; i < start; i += 1) out.push(lines[i] as FileLine);
    const expectedNewStart = hunk.newCount === 0 ? out.length : out.length + 1;
    if (hunk.newStart !== expectedNewStart) {
      throw invalidArgumentError(`hunk ${hunk.index} header says +${hunk.newStart},${hunk.newCount} but its new lines start at line ${expectedNewStart} (earlier hunks included); fix the header`, {
        hunk: hunk.index,
      });
    }
    let at = start;
    for (const hunkLine of hunk.lines) {
      if (hunkLine.kind === '+') {
        // `git diff` of a CRLF file shows each line's CR as content ("+two\r"): that line is CRLF.
        if (!hunkLine.noNewline && hunkLine.text.endsWith('\r')) out.push({ text: hunkLine.text.slice(0, -1), eol: '\r\n' });
        else out.push({ text: hunkLine.text, eol: hunkLine.noNewline ? '' : newEol });
        continue;
      }
      const fileLine = lines[at] as FileLine;
      checkLine(path, hunk, hunkLine, fileLine, at, lines.length);
      if (hunkLine.kind === ' ') out.push(fileLine);
      at += 1;
    }
    cursor = at;
  }
  for (let i = cursor; i < lines.length; i += 1) out.push(lines[i] as FileLine);
  const early = out.findIndex((line, index) => line.eol === '' && index < out.length - 1);
  if (early !== -1) throw invalidArgumentError(`a line marked "\\ No newline at end of file" would not be the last line of ${path} (new line ${early + 1})`);
  return out.map((line) => line.text + line.eol).join('');
}

/**
 * A diff line matches a file line when the texts are equal, or when the diff carries the line's
 * CR as content (`git diff` of a CRLF file: " two\r") and the file line ends in CRLF.
 */
function sameLine(expected: HunkLine, actual: FileLine): boolean {
  return expected.text === actual.text || (actual.eol === '\r\n' && expected.text === `${actual.text}\r`);
}

function eolName(eol: string): string {
  return eol === '\r\n' ? 'CRLF' : eol === '\n' ? 'LF' : 'no newline';
}

function checkLine(path: string, hunk: Hunk, expected: HunkLine, actual: FileLine, index: number, total: number): void {
  const where = `hunk ${hunk.index} does not apply: line ${index + 1} of ${path}`;
  if (!sameLine(expected, actual)) {
    let hint = '';
    const diffText = expected.text.endsWith('\r') ? expected.text.slice(0, -1) : expected.text;
    if (diffText === actual.text) hint = ` (they differ only in the line ending: the diff has CRLF here, the file line ends in ${eolName(actual.eol)})`;
    else if (expected.text.trim() === actual.text.trim() || expected.text.replace(/\s+/g, ' ') === actual.text.replace(/\s+/g, ' ')) hint = ' (they differ only in whitespace)';
    const ending = actual.eol === '\r\n' || diffText !== expected.text ? ` (${eolName(actual.eol)})` : '';
    throw invalidArgumentError(`${where} is ${JSON.stringify(actual.text)}${ending} but the diff expects ${JSON.stringify(diffText)}${hint}; the patch is stale or wrong, nothing was changed`, {
      hunk: hunk.index,
      line: index + 1,
    });
  }
  if (expected.noNewline && actual.eol !== '') {
    throw invalidArgumentError(`${where} ends with a newline but the diff marks it "\\ No newline at end of file"`, { hunk: hunk.index, line: index + 1 });
  }
  if (!expected.noNewline && actual.eol === '' && index === total - 1) {
    throw invalidArgumentError(`${where} is the last line and has no newline at the end; the diff must mark it with "\\ No newline at end of file"`, { hunk: hunk.index, line: index + 1 });
  }
}
