import type { Style } from './ansi.js';
import { CURSOR } from './ansi.js';
import { formatDuration } from './tool-summary.js';

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
  #timer: ReturnType<typeof setInterval> | null = null;
  #label = '';
  #startedAt = 0;
  #frame = 0;

  constructor(write: (text: string) => void, style: Style) {
    this.#write = write;
    this.#style = style;
  }

  /** True while drawn. */
  get active(): boolean {
    return this.#timer !== null;
  }

  /** Starts (or relabels, keeping the start time when `restart` is false) the spinner. */
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
    this.#write(`${CURSOR.clearLine}${this.#style.cyan(frame)} ${this.#label}  ${this.#style.dim(formatDuration(Date.now() - this.#startedAt))}`);
  }
}
