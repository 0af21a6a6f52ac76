import { byteLength, utf8Decoder } from './tool-support.js';

/** Most often a live-output delta is emitted: one per this many ms. */
export const OUTPUT_DELTA_INTERVAL_MS = 100;

/** Most bytes of one delta; when more arrived since the last one, the newest bytes are kept. */
export const MAX_OUTPUT_DELTA_BYTES = 8 * 1024;

/** Most bytes streamed live for one call; the tool result keeps the full (bounded) output. */
export const MAX_STREAMED_OUTPUT_BYTES = 256 * 1024;

const utf8Encoder = new TextEncoder();

/** Options of {@link OutputStreamer}; defaults are the constants above. */
export interface OutputStreamerOptions {
  readonly intervalMs?: number;
  readonly maxDeltaBytes?: number;
  readonly maxTotalBytes?: number;
}

/**
 * Turns a process's live output into bounded `tool_output_delta` text: at most one delta per
 * `intervalMs` (the first chunk goes out at once), each at most `maxDeltaBytes` (a burst keeps
 * its newest bytes and says how many it skipped), at most `maxTotalBytes` per call (then one
 * closing note). {@link close} flushes what is pending; nothing is emitted after it.
 */
export class OutputStreamer {
  readonly #emit: (text: string) => void;
  readonly #intervalMs: number;
  readonly #maxDeltaBytes: number;
  readonly #maxTotalBytes: number;
  #pending = '';
  #pendingBytes = 0;
  #skippedBytes = 0;
  #streamedBytes = 0;
  #lastEmit = Number.NEGATIVE_INFINITY;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #stopped = false;

  constructor(emit: (text: string) => void, options: OutputStreamerOptions = {}) {
    this.#emit = emit;
    this.#intervalMs = options.intervalMs ?? OUTPUT_DELTA_INTERVAL_MS;
    this.#maxDeltaBytes = options.maxDeltaBytes ?? MAX_OUTPUT_DELTA_BYTES;
    this.#maxTotalBytes = options.maxTotalBytes ?? MAX_STREAMED_OUTPUT_BYTES;
  }

  /** Adds output as the process wrote it. */
  push(text: string): void {
    if (this.#stopped || text.length === 0) return;
    this.#pending += text;
    this.#pendingBytes += byteLength(text);
    if (this.#pendingBytes > this.#maxDeltaBytes) this.#keepNewest();
    if (this.#timer !== undefined) return;
    const wait = this.#lastEmit + this.#intervalMs - performance.now();
    if (wait <= 0) this.#flush();
    else this.#timer = setTimeout(() => this.#flush(), wait);
  }

  /** Emits what is pending and stops. Idempotent. */
  close(): void {
    if (this.#stopped) return;
    this.#flush();
    this.#stopped = true;
  }

  #keepNewest(): void {
    const bytes = utf8Encoder.encode(this.#pending);
    // The first code point that starts at or after the cut, so at most maxDeltaBytes remain.
    let cut = bytes.byteLength - this.#maxDeltaBytes;
    while (cut < bytes.byteLength && ((bytes[cut] as number) & 0xc0) === 0x80) cut += 1;
    this.#skippedBytes += cut;
    this.#pending = utf8Decoder.decode(bytes.subarray(cut));
    this.#pendingBytes = bytes.byteLength - cut;
  }

  #flush(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#stopped || (this.#pending.length === 0 && this.#skippedBytes === 0)) return;
    let text = this.#skippedBytes > 0 ? `[... ${this.#skippedBytes} bytes not streamed ...]\n${this.#pending}` : this.#pending;
    this.#pending = '';
    this.#pendingBytes = 0;
    this.#skippedBytes = 0;
    this.#lastEmit = performance.now();
    const bytes = byteLength(text);
    if (this.#streamedBytes + bytes >= this.#maxTotalBytes) {
      text = `${text}\n[live output stopped after ${this.#streamedBytes + bytes} bytes; the result holds the output]\n`;
      this.#stopped = true;
    }
    this.#streamedBytes += bytes;
    this.#emit(text);
  }
}
