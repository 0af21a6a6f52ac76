import { invalidArgumentError } from './tool-support.js';

/** One body line of a hunk. */
export interface HunkLine {
  readonly kind: ' ' | '-' | '+';
  readonly text: string;
  /** Followed by `\ No newline at end of file`. */
  noNewline: boolean;
}

/** One parsed hunk; `index` is 1-based, for messages. */
export interface Hunk {
  readonly index: number;
  readonly oldStart: number;
  readonly oldCount: number;
  readonly newStart: number;
  readonly newCount: number;
  readonly lines: HunkLine[];
}

/** A single-file unified diff. Header paths are `undefined` when absent, `null` for /dev/null. */
export interface ParsedPatch {
  readonly oldPath: string | null | undefined;
  readonly newPath: string | null | undefined;
  readonly hunks: readonly Hunk[];
  /** The diff text itself used CRLF line endings. */
  readonly crlf: boolean;
}

const HUNK_HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;
const PREAMBLE = /^(diff --git |index |new file mode |deleted file mode |old mode |new mode |similarity index |dissimilarity index |rename from |rename to |copy from |copy to )/;

/**
 * Parses a single-file unified diff STRICTLY: each hunk body must hold exactly the old and new
 * line counts its header announces (a short or over-long hunk is an error naming the hunk),
 * `\ No newline at end of file` attaches to the line before it, and a second file is refused.
 * Throws an `invalid_argument` CodeError; never guesses.
 */
export function parseUnifiedDiff(diff: string): ParsedPatch {
  const lines = diff.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const crlf = lines.length > 0 && lines.every((line) => line.endsWith('\r'));
  if (crlf) for (let i = 0; i < lines.length; i += 1) lines[i] = (lines[i] as string).slice(0, -1);
  let oldPath: string | null | undefined;
  let newPath: string | null | undefined;
  const hunks: Hunk[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] as string;
    if (line.startsWith('@@')) {
      const match = HUNK_HEADER.exec(line);
      if (match === null) throw invalidArgumentError(`line ${i + 1} of the diff is not a valid hunk header: ${JSON.stringify(line)} (expected "@@ -a,b +c,d @@")`);
      i = parseHunkBody(lines, i, match, hunks);
      continue;
    }
    if (hunks.length > 0) {
      if (line.startsWith('--- ') || line.startsWith('diff --git ')) throw invalidArgumentError('the diff changes more than one file; patch applies to exactly one file (file_path)');
      if (line.trim() === '') {
        i += 1;
        continue;
      }
      const last = hunks[hunks.length - 1] as Hunk;
      throw invalidArgumentError(
        `hunk ${last.index} has more lines than its header counts (-${last.oldStart},${last.oldCount} +${last.newStart},${last.newCount}): unexpected diff line ${i + 1} ${JSON.stringify(line)}`,
      );
    }
    if (line.startsWith('--- ')) {
      if (oldPath !== undefined) throw invalidArgumentError('the diff changes more than one file; patch applies to exactly one file (file_path)');
      oldPath = headerPath(line.slice(4));
    } else if (line.startsWith('+++ ')) {
      newPath = headerPath(line.slice(4));
    } else if (line.startsWith('Binary files ') || line === 'GIT binary patch') {
      throw invalidArgumentError('binary patches are not supported');
    } else if (!PREAMBLE.test(line) && (oldPath !== undefined || newPath !== undefined)) {
      throw invalidArgumentError(`unexpected line ${i + 1} between the file headers and the first hunk: ${JSON.stringify(line)}`);
    }
    i += 1;
  }
  if (hunks.length === 0) throw invalidArgumentError('the diff has no hunks; expected a unified diff with "@@ -a,b +c,d @@" hunk headers');
  return { oldPath, newPath, hunks, crlf };
}

function parseHunkBody(lines: readonly string[], headerIndex: number, match: RegExpExecArray, hunks: Hunk[]): number {
  const hunk: Hunk = {
    index: hunks.length + 1,
    oldStart: Number(match[1]),
    oldCount: match[2] === undefined ? 1 : Number(match[2]),
    newStart: Number(match[3]),
    newCount: match[4] === undefined ? 1 : Number(match[4]),
    lines: [],
  };
  if (hunk.oldCount === 0 && hunk.newCount === 0) throw invalidArgumentError(`hunk ${hunk.index} is empty (-${hunk.oldStart},0 +${hunk.newStart},0)`);
  let oldSeen = 0;
  let newSeen = 0;
  let i = headerIndex + 1;
  const shortHunk = (): Error =>
    invalidArgumentError(
      `hunk ${hunk.index} ends early: its header says -${hunk.oldStart},${hunk.oldCount} +${hunk.newStart},${hunk.newCount} but the body has ${oldSeen} old and ${newSeen} new line(s)`,
    );
  while (oldSeen < hunk.oldCount || newSeen < hunk.newCount) {
    const line = lines[i];
    if (line === undefined) throw shortHunk();
    if (line.startsWith('\\')) {
      attachMarker(hunk, i);
      i += 1;
      continue;
    }
    // An empty body line is an empty context line whose leading space was stripped by an editor.
    const kind = line === '' ? ' ' : line[0];
    if (kind !== ' ' && kind !== '-' && kind !== '+') throw shortHunk();
    if (kind !== '+') oldSeen += 1;
    if (kind !== '-') newSeen += 1;
    if (oldSeen > hunk.oldCount || newSeen > hunk.newCount) {
      throw invalidArgumentError(
        `hunk ${hunk.index} does not match its header -${hunk.oldStart},${hunk.oldCount} +${hunk.newStart},${hunk.newCount}: diff line ${i + 1} ${JSON.stringify(line)} exceeds the announced ${kind === '+' ? 'new' : 'old'} line count`,
      );
    }
    hunk.lines.push({ kind, text: line.slice(1), noNewline: false });
    i += 1;
  }
  if (lines[i]?.startsWith('\\') === true) {
    attachMarker(hunk, i);
    i += 1;
  }
  hunks.push(hunk);
  return i;
}

function attachMarker(hunk: Hunk, index: number): void {
  const previous = hunk.lines[hunk.lines.length - 1];
  if (previous === undefined) throw invalidArgumentError(`diff line ${index + 1}: "\\ No newline at end of file" must follow a hunk line`);
  previous.noNewline = true;
}

/** The path of a `---`/`+++` header: timestamp dropped, C quoting undone, `/dev/null` -> null. */
function headerPath(raw: string): string | null {
  let path = raw.includes('\t') ? raw.slice(0, raw.indexOf('\t')) : raw.trimEnd();
  if (path.startsWith('"') && path.endsWith('"') && path.length >= 2) {
    path = path.slice(1, -1).replace(/\\(["\\tn])/g, (_, ch: string) => (ch === 't' ? '\t' : ch === 'n' ? '\n' : ch));
  }
  return path === '/dev/null' ? null : path;
}
