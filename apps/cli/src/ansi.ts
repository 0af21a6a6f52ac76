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
  // A dumb terminal (Emacs shell, some CI logs) shows escape sequences as garbage.
  if (env['TERM'] === 'dumb') return false;
  return isTty;
}

// CSI sequences (colours, cursor moves, erase) and OSC sequences; enough for our own output.
const ANSI_PATTERN = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]/g;

/** Text without ANSI escape sequences. */
export function stripAnsi(text: string): string {
  return text.replace(ANSI_PATTERN, '');
}

// The same sequences introduced by the 8-bit C1 controls (CSI U+009B, OSC U+009D).
// The OSC body stops at any introducer: a flood of unterminated ones must scan in linear time.
const C1_SEQUENCE_PATTERN = /\u009b[0-?]*[ -/]*[@-~]|\u009d[^\u0007\u001b\u009b\u009c\u009d]*(?:\u0007|\u009c|\u001b\\)/g;
// Every other C0 control but tab and newline (a carriage return would let text overwrite its
// own line), DEL and the C1 controls.
const CONTROL_PATTERN = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/**
 * Text from outside the CLI (model text, tool arguments and output, diffs, error messages) made
 * safe to print: escape sequences are removed whole, then any control character left (a lone
 * ESC, a bell, a carriage return) is dropped; tabs and newlines stay. Nothing a tool prints can
 * then move the cursor, clear the screen, retitle the window or hide text from the human.
 */
export function sanitizeTerminalText(text: string): string {
  return text.replace(ANSI_PATTERN, '').replace(C1_SEQUENCE_PATTERN, '').replace(CONTROL_PATTERN, '');
}

// Invisible and direction-changing characters: bidi overrides and isolates (U+202A-202E,
// U+2066-2069), marks, zero-width characters (U+200B-200D, U+2060, U+FEFF), other format,
// private-use and unassigned characters, and spaces other than U+0020.
const INVISIBLE_PATTERN = /[\p{Cf}\p{Co}\p{Cn}\p{Zl}\p{Zp}\u00A0\u1680\u2000-\u200A\u202F\u205F\u3000\u115F\u1160\u3164\uFFA0]/gu;

/**
 * `text` for a question a human approves: control sequences removed (see
 * {@link sanitizeTerminalText}) and every invisible or direction-changing character shown as a
 * visible `<U+202E>` tag, so what the human reads is what would run (Trojan Source, hidden
 * zero-width characters in a command or a diff).
 */
export function revealInvisible(text: string): string {
  return sanitizeTerminalText(text).replace(INVISIBLE_PATTERN, (char) => `<U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}>`);
}

/** Cursor and erase sequences used by the live renderer. */
export const CURSOR = Object.freeze({
  /** Back to column 0 and erase the line. */
  clearLine: '\r\u001b[2K',
  /** Erase from the cursor to the end of the screen. */
  clearDown: '\u001b[J',
  up: (rows: number): string => (rows > 0 ? `\u001b[${rows}A` : ''),
});
