import { StringDecoder } from 'node:string_decoder';
import type { CliInput } from './cli-io.js';

/**
 * Reads answers line by line from stdin, only while a question is open, so an idle CLI does not
 * hold the terminal (and the event loop) through a paused stdin.
 */
export class LineReader {
  readonly #input: CliInput;
  #buffer = '';
  /** Keeps a multi-byte character split across chunks whole. */
  readonly #decoder = new StringDecoder('utf8');
  #waiter: ((line: string | null) => void) | null = null;
  #ended = false;
  #attached = false;
  readonly #discardTypeAhead: boolean;

  /**
   * @param options.discardTypeAhead drop lines typed before a question was asked (left over
   *   after the previous answer), so a `y` typed ahead never answers a question the human has
   *   not seen. Default: true when `input` is a terminal; piped input keeps every line.
   */
  constructor(input: CliInput, options: { readonly discardTypeAhead?: boolean } = {}) {
    this.#input = input;
    this.#discardTypeAhead = options.discardTypeAhead ?? input.isTTY === true;
  }

  readonly #onData = (chunk: string | Buffer): void => {
    this.#buffer += typeof chunk === 'string' ? chunk : this.#decoder.write(chunk);
    this.#deliver();
  };

  readonly #onEnd = (): void => {
    this.#buffer += this.#decoder.end();
    this.#ended = true;
    this.#deliver();
  };

  /**
   * The next line (without its newline), or `null` at end of input or after {@link cancel}. On a
   * terminal, complete lines typed before this call are discarded (see the constructor).
   */
  next(): Promise<string | null> {
    if (this.#waiter !== null) return Promise.reject(new Error('LineReader.next() called while a line is already awaited'));
    if (this.#discardTypeAhead) {
      const lastNewline = this.#buffer.lastIndexOf('\n');
      if (lastNewline >= 0) this.#buffer = this.#buffer.slice(lastNewline + 1);
    }
    const promise = new Promise<string | null>((resolve) => {
      this.#waiter = resolve;
    });
    this.#attach();
    this.#deliver();
    return promise;
  }

  /** Resolves an open `next()` with `null` (Ctrl-C while a question is open). */
  cancel(): void {
    const waiter = this.#waiter;
    this.#waiter = null;
    this.#detach();
    waiter?.(null);
  }

  /** Stops reading. */
  close(): void {
    this.cancel();
  }

  #deliver(): void {
    const waiter = this.#waiter;
    if (waiter === null) return;
    const newline = this.#buffer.indexOf('\n');
    if (newline >= 0) {
      const line = this.#buffer.slice(0, newline).replace(/\r$/, '');
      this.#buffer = this.#buffer.slice(newline + 1);
      this.#waiter = null;
      this.#detach();
      waiter(line);
    } else if (this.#ended) {
      this.#waiter = null;
      this.#detach();
      waiter(this.#buffer.length > 0 ? this.#buffer : null);
      this.#buffer = '';
    }
  }

  #attach(): void {
    if (this.#attached || this.#ended) return;
    this.#attached = true;
    this.#input.on('data', this.#onData);
    this.#input.on('end', this.#onEnd);
    this.#input.resume();
  }

  #detach(): void {
    if (!this.#attached) return;
    this.#attached = false;
    this.#input.off('data', this.#onData);
    this.#input.off('end', this.#onEnd);
    this.#input.pause();
  }
}
