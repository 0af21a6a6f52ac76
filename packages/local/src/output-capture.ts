/** Which pipe a chunk came from. */
export type OutputStream = 'stdout' | 'stderr';

/** Text of both streams after capture, with exact byte accounting. */
export interface CapturedOutput {
  readonly stdout: string;
  readonly stderr: string;
  /** Bytes the process wrote to each stream, dropped ones included. */
  readonly stdoutBytes: number;
  readonly stderrBytes: number;
  /** Bytes left out of `stdout` + `stderr` (the middle of the output, plus split UTF-8 sequences at the cuts). */
  readonly droppedBytes: number;
}

interface Piece {
  readonly stream: OutputStream;
  data: Buffer;
}

/**
 * Byte-bounded capture shared by stdout and stderr: the first half of the budget keeps the HEAD
 * of the combined output, the second half a rolling TAIL; everything in between is dropped and
 * counted. Memory stays bounded whatever the process writes. Each stream's text gets a marker
 * `[... N bytes omitted ...]` where its own bytes were dropped.
 */
export class OutputCapture {
  private readonly headLimit: number;
  private readonly tailLimit: number;
  private readonly head: Piece[] = [];
  private readonly tail: Piece[] = [];
  private headBytes = 0;
  private tailBytes = 0;
  private readonly totals = { stdout: 0, stderr: 0 };
  private readonly dropped = { stdout: 0, stderr: 0 };

  /** @param maxBytes budget across both streams (at least 2). */
  constructor(maxBytes: number) {
    const budget = Math.max(2, Math.floor(maxBytes));
    this.headLimit = Math.floor(budget / 2);
    this.tailLimit = budget - this.headLimit;
  }

  /** Adds a chunk the process wrote. */
  push(stream: OutputStream, chunk: Buffer): void {
    this.totals[stream] += chunk.length;
    let rest = chunk;
    if (this.headBytes < this.headLimit) {
      const take = Math.min(rest.length, this.headLimit - this.headBytes);
      // Copy: a subarray would pin the whole (possibly 64 KiB) read buffer for the run's lifetime.
      this.head.push({ stream, data: Buffer.from(rest.subarray(0, take)) });
      this.headBytes += take;
      rest = rest.subarray(take);
    }
    if (rest.length === 0) return;
    if (rest.length >= this.tailLimit) {
      for (const piece of this.tail) this.dropped[piece.stream] += piece.data.length;
      this.tail.length = 0;
      this.dropped[stream] += rest.length - this.tailLimit;
      this.tail.push({ stream, data: Buffer.from(rest.subarray(rest.length - this.tailLimit)) });
      this.tailBytes = this.tailLimit;
      return;
    }
    this.tail.push({ stream, data: Buffer.from(rest) });
    this.tailBytes += rest.length;
    while (this.tailBytes > this.tailLimit) {
      const first = this.tail[0] as Piece;
      const excess = this.tailBytes - this.tailLimit;
      if (first.data.length <= excess) {
        this.tail.shift();
        this.tailBytes -= first.data.length;
        this.dropped[first.stream] += first.data.length;
      } else {
        first.data = first.data.subarray(excess);
        this.tailBytes -= excess;
        this.dropped[first.stream] += excess;
      }
    }
  }

  /** Decodes both streams (UTF-8, never splitting a character at a cut) with the final accounting. */
  finish(): CapturedOutput {
    const stdout = this.decode('stdout');
    const stderr = this.decode('stderr');
    return {
      stdout: stdout.text,
      stderr: stderr.text,
      stdoutBytes: this.totals.stdout,
      stderrBytes: this.totals.stderr,
      droppedBytes: stdout.dropped + stderr.dropped,
    };
  }

  private decode(stream: OutputStream): { text: string; dropped: number } {
    let head = Buffer.concat(this.head.filter((p) => p.stream === stream).map((p) => p.data));
    let tail = Buffer.concat(this.tail.filter((p) => p.stream === stream).map((p) => p.data));
    let dropped = this.dropped[stream];
    if (dropped === 0) return { text: Buffer.concat([head, tail]).toString('utf8'), dropped };
    const headKeep = completeUtf8Length(head);
    dropped += head.length - headKeep;
    head = head.subarray(0, headKeep);
    const tailSkip = leadingContinuationBytes(tail);
    dropped += tailSkip;
    tail = tail.subarray(tailSkip);
    return { text: `${head.toString('utf8')}\n[... ${dropped} bytes omitted ...]\n${tail.toString('utf8')}`, dropped };
  }
}

/** Length of `buffer` without a trailing incomplete UTF-8 sequence. */
export function completeUtf8Length(buffer: Buffer): number {
  const end = buffer.length;
  // Look back at most 3 bytes for the lead byte of the last sequence.
  for (let index = end - 1; index >= Math.max(0, end - 4); index -= 1) {
    const byte = buffer[index] as number;
    if ((byte & 0xc0) === 0x80) continue;
    const needed = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return end - index >= needed ? end : index;
  }
  return end;
}

/** Number of UTF-8 continuation bytes at the start of `buffer` (at most 3). */
export function leadingContinuationBytes(buffer: Buffer): number {
  let count = 0;
  while (count < 3 && count < buffer.length && ((buffer[count] as number) & 0xc0) === 0x80) count += 1;
  return count;
}
