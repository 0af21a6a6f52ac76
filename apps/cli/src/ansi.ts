/** ANSI styling that turns itself off when colour is not wanted. */
export interface Style {
  readonly enabled: boolean;
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
  magenta(text: string): string;
}

const wrap =
  (enabled: boolean, open: number, close: number) =>
  (text: string): string =>
    enabled ? `\u001b[${open}m${text}\u001b[${close}m` : text;

/** A {@link Style}; `enabled: false` returns text unchanged (pipes, files, `NO_COLOR`). */
export function createStyle(enabled: boolean): Style {
  return {
    enabled,
    bold: wrap(enabled, 1, 22),
    dim: wrap(enabled, 2, 22),
    red: wrap(enabled, 31, 39),
    green: wrap(enabled, 32, 39),
    yellow: wrap(enabled, 33, 39),
    cyan: wrap(enabled, 36, 39),
    magenta: wrap(enabled, 35, 39),
  };
}

/**
 * Colour is on for a TTY unless `NO_COLOR` is set (https://no-color.org); `FORCE_COLOR` (not
 * "0") turns it on anywhere.
 */
export function colorWanted(isTty: boolean, env: Readonly<Record<string, string | undefined>>): boolean {
  const force = env['FORCE_COLOR'];
  if (force !== undefined && force !== '' && force !== '0') return true;
  if (env['NO_COLOR'] !== undefined && env['NO_COLOR'] !== '') return false;
  return isTty;
}

// CSI sequences (colours, cursor moves, erase) and OSC sequences; enough for our own output.
const ANSI_PATTERN = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]/g;

/** Text without ANSI escape sequences. */
export function stripAnsi(text: string): string {
  return text.replace(ANSI_PATTERN, '');
}

/** Cursor and erase sequences used by the live renderer. */
export const CURSOR = Object.freeze({
  /** Back to column 0 and erase the line. */
  clearLine: '\r\u001b[2K',
  /** Erase from the cursor to the end of the screen. */
  clearDown: '\u001b[J',
  up: (rows: number): string => (rows > 0 ? `\u001b[${rows}A` : ''),
});
