import type { Style } from './ansi.js';
import { CURSOR, stripAnsi } from './ansi.js';
import { formatDuration } from './tool-summary.js';
import { displayWidth, truncateToWidth } from './display-width.js';

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
/** Redraw period of the spinner, ms. */
export const SPINNER_INTERVAL_MS = 100;

/**
 * A one-line spinner with the elapsed time (`⠹ bash  npm test  3.2s`), redrawn in place. Only
 * used on a TTY; it owns the current line while it runs and erases it when stopped.
 */
export class Spinner {
  readonly #write: (text: string) => void;
  readonly #style: Style;
  readonly #columns: () => number;
  #timer: ReturnType<typeof setInterval> | null = null;
  #label = '';
  #startedAt = 0;
  #frame = 0;

  /** `columns` is the terminal width: a spinner line that wrapped could not be erased in place. */
  constructor(write: (text: string) => void, style: Style, columns: () => number = () => 80) {
    this.#write = write;
    this.#style = style;
    this.#columns = columns;
  }

  /** True while drawn. */
  get active(): boolean {
    return this.#timer !== null;
  }

  /** Starts the spinner, or relabels a running one; elapsed time counts from `startedAt` (default now). */
  start(label: string, startedAt = Date.now()): void {
    this.#label = label;
    this.#startedAt = startedAt;
    if (this.#timer === null) {
      this.#timer = setInterval(() => this.#draw(), SPINNER_INTERVAL_MS);
      // The spinner must never keep the process alive on its own.
      this.#timer.unref?.();
    }
    this.#draw();
  }

  /** Erases the spinner line. */
  stop(): void {
    if (this.#timer === null) return;
    clearInterval(this.#timer);
    this.#timer = null;
    this.#write(CURSOR.clearLine);
  }

  #draw(): void {
    const frame = FRAMES[this.#frame % FRAMES.length] as string;
    this.#frame += 1;
    let line = `${this.#style.cyan(frame)} ${this.#label}  ${this.#style.dim(formatDuration(Date.now() - this.#startedAt))}`;
    const width = Math.max(10, this.#columns() - 1);
    const plain = stripAnsi(line);
    if (displayWidth(plain) > width) line = truncateToWidth(plain, width);
    this.#write(`${CURSOR.clearLine}${line}`);
  }
}
