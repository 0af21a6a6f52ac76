/** A changed region: lines `[aStart, aEnd)` of the old text became `[bStart, bEnd)` of the new. */
export interface ChangeBlock {
  readonly aStart: number;
  readonly aEnd: number;
  readonly bStart: number;
  readonly bEnd: number;
}

/** Default bound on the Myers edit distance before falling back to one replace block. */
export const DEFAULT_MAX_EDIT_DISTANCE = 2000;

/**
 * Splits text into lines that KEEP their terminator (`\n` or `\r\n`), so a missing final newline
 * or a changed line ending shows up as a difference. Empty text has no lines.
 */
export function splitLinesKeepEol(text: string): string[] {
  const lines: string[] = [];
  let start = 0;
  for (;;) {
    const newline = text.indexOf('\n', start);
    if (newline === -1) break;
    lines.push(text.slice(start, newline + 1));
    start = newline + 1;
  }
  if (start < text.length) lines.push(text.slice(start));
  return lines;
}

/**
 * Line diff of `a` and `b` as change blocks in order. Common prefix and suffix are trimmed first
 * (an edit of a 10 MB file usually touches a few lines); the middle runs Myers' O((N+M)D)
 * algorithm, and when the edit distance exceeds `maxEditDistance` the middle becomes one replace
 * block, which is still a correct (if less minimal) diff with bounded cost.
 */
export function diffLines(a: readonly string[], b: readonly string[], maxEditDistance = DEFAULT_MAX_EDIT_DISTANCE): ChangeBlock[] {
  let prefix = 0;
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix += 1;
  let suffix = 0;
  while (suffix < a.length - prefix && suffix < b.length - prefix && a[a.length - 1 - suffix] === b[b.length - 1 - suffix]) suffix += 1;
  const aMid = a.slice(prefix, a.length - suffix);
  const bMid = b.slice(prefix, b.length - suffix);
  if (aMid.length === 0 && bMid.length === 0) return [];
  if (aMid.length === 0 || bMid.length === 0) return [{ aStart: prefix, aEnd: prefix + aMid.length, bStart: prefix, bEnd: prefix + bMid.length }];
  const ids = new Map<string, number>();
  const intern = (line: string): number => {
    let id = ids.get(line);
    if (id === undefined) {
      id = ids.size;
      ids.set(line, id);
    }
    return id;
  };
  const aIds = Int32Array.from(aMid, intern);
  const bIds = Int32Array.from(bMid, intern);
  const blocks = myers(aIds, bIds, maxEditDistance) ?? [{ aStart: 0, aEnd: aIds.length, bStart: 0, bEnd: bIds.length }];
  return blocks.map((block) => ({ aStart: block.aStart + prefix, aEnd: block.aEnd + prefix, bStart: block.bStart + prefix, bEnd: block.bEnd + prefix }));
}

/** Myers' greedy algorithm with a per-step trace of the visited diagonals; null past the bound. */
function myers(a: Int32Array, b: Int32Array, maxD: number): ChangeBlock[] | null {
  const n = a.length;
  const m = b.length;
  const max = Math.min(n + m, maxD);
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d += 1) {
    trace.push(v.slice(offset - d - 1, offset + d + 2));
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && (v[offset + k - 1] as number) < (v[offset + k + 1] as number)) ? (v[offset + k + 1] as number) : (v[offset + k - 1] as number) + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x += 1;
        y += 1;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) return backtrack(trace, d, n, m);
    }
  }
  return null;
}

function backtrack(trace: readonly Int32Array[], dEnd: number, n: number, m: number): ChangeBlock[] {
  // Walk back from (n, m), collecting single-line moves, then merge adjacent ones into blocks.
  const moves: { kind: 'delete' | 'insert'; x: number; y: number }[] = [];
  let x = n;
  let y = m;
  for (let d = dEnd; d > 0; d -= 1) {
    const snapshot = trace[d] as Int32Array;
    // snapshot index i holds diagonal k = i - d - 1.
    const at = (k: number): number => snapshot[k + d + 1] as number;
    const k = x - y;
    const down = k === -d || (k !== d && at(k - 1) < at(k + 1));
    const prevK = down ? k + 1 : k - 1;
    const prevX = at(prevK);
    const prevY = prevX - prevK;
    while (x > prevX + (down ? 0 : 1) && y > prevY + (down ? 1 : 0)) {
      x -= 1;
      y -= 1;
    }
    if (down) moves.push({ kind: 'insert', x: prevX, y: prevY });
    else moves.push({ kind: 'delete', x: prevX, y: prevY });
    x = prevX;
    y = prevY;
  }
  moves.reverse();
  const blocks: ChangeBlock[] = [];
  for (const move of moves) {
    const last = blocks[blocks.length - 1];
    const aEnd = move.kind === 'delete' ? move.x + 1 : move.x;
    const bEnd = move.kind === 'insert' ? move.y + 1 : move.y;
    if (last !== undefined && last.aEnd === move.x && last.bEnd === move.y) {
      blocks[blocks.length - 1] = { aStart: last.aStart, aEnd, bStart: last.bStart, bEnd };
    } else {
      blocks.push({ aStart: move.x, aEnd, bStart: move.y, bEnd });
    }
  }
  return blocks;
}
