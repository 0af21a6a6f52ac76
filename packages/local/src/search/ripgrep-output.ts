import type { EngineRecord } from './search-engine.js';

const NUL = 0;
const NEWLINE = 10;
const COLON = 58;
const DASH = 45;

/**
 * Streaming parser of ripgrep's plain `--null` output (cheaper than `--json`: no JSON, no base64):
 *
 * - content: `path NUL line (':' match | '-' context) text LF`
 * - files:   `path NUL`
 * - count:   `path NUL count LF`
 *
 * Paths are split on NUL, so names containing newlines survive. Consecutive records of one file
 * reuse the decoded path string.
 */
export class RecordParser {
  private pending: Buffer[] | null = null;
  private pendingBytes = 0;
  private lastPathBytes: Buffer | null = null;
  private lastPath = '';

  /**
   * @param kind the output format being parsed.
   * @param stripPrefix bytes to drop from each path (2 for the `./` ripgrep prints for `.`).
   */
  constructor(
    private readonly kind: 'content' | 'files' | 'count',
    private readonly stripPrefix: number,
  ) {}

  /** Parses a chunk; returns the complete records it finished. */
  push(chunk: Buffer): EngineRecord[] {
    if (this.pending !== null) {
      // A record is incomplete until its terminator arrives; keep collecting chunks until then
      // instead of re-concatenating and re-scanning (a minified 1 MiB line spans many chunks).
      if (chunk.indexOf(this.kind === 'files' ? NUL : NEWLINE) === -1) {
        this.pending.push(chunk);
        this.pendingBytes += chunk.length;
        return [];
      }
    }
    const data = this.pending === null ? chunk : Buffer.concat([...this.pending, chunk], this.pendingBytes + chunk.length);
    const records: EngineRecord[] = [];
    const consumed = this.parse(data, records);
    if (consumed >= data.length) {
      this.pending = null;
      this.pendingBytes = 0;
    } else {
      this.pending = [data.subarray(consumed)];
      this.pendingBytes = data.length - consumed;
    }
    return records;
  }

  /** Flushes a final record without trailing newline (ripgrep always ends records, so normally empty). */
  end(): EngineRecord[] {
    if (this.pending === null) return [];
    const data = Buffer.concat([...this.pending, Buffer.from([NEWLINE])]);
    this.pending = null;
    this.pendingBytes = 0;
    const records: EngineRecord[] = [];
    this.parse(data, records);
    return records;
  }

  private parse(data: Buffer, records: EngineRecord[]): number {
    let position = 0;
    const length = data.length;
    while (position < length) {
      const nul = data.indexOf(NUL, position);
      if (nul === -1) return position;
      const path = this.pathOf(data, position, nul);
      if (this.kind === 'files') {
        records.push({ kind: 'file', path, count: 1 });
        position = nul + 1;
        continue;
      }
      let cursor = nul + 1;
      let number = 0;
      while (cursor < length) {
        const byte = data[cursor] as number;
        if (byte < 48 || byte > 57) break;
        number = number * 10 + (byte - 48);
        cursor += 1;
      }
      if (this.kind === 'count') {
        if (cursor >= length) return position;
        records.push({ kind: 'file', path, count: number });
        position = cursor + 1;
        continue;
      }
      if (cursor >= length) return position;
      const separator = data[cursor] as number;
      const newline = data.indexOf(NEWLINE, cursor + 1);
      if (newline === -1) return position;
      records.push({
        kind: 'line',
        path,
        line: number,
        text: data.toString('utf8', cursor + 1, newline),
        match: separator === COLON || separator !== DASH,
      });
      position = newline + 1;
    }
    return position;
  }

  private pathOf(data: Buffer, start: number, end: number): string {
    const from = start + this.stripPrefix;
    const last = this.lastPathBytes;
    if (last !== null && last.length === end - from && data.compare(last, 0, last.length, from, end) === 0) return this.lastPath;
    this.lastPathBytes = Buffer.from(data.subarray(from, end));
    this.lastPath = this.lastPathBytes.toString('utf8');
    return this.lastPath;
  }
}
