const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  a: '\x07',
  b: '\b',
  e: '\x1b',
  E: '\x1b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '?': '?',
};

const OCTAL = /^[0-7]{1,3}/;
const HEX = /^[0-9A-Fa-f]+/;

/**
 * Decodes one backslash escape inside a bash `$'...'` string, starting at the backslash at
 * `index`: `\n`, `\t`, `\xHH`, `\uHHHH`, `\UHHHHHHHH`, octal `\nnn`, `\cX`... An escape bash does
 * not know keeps its backslash, as bash does.
 *
 * @returns the decoded text and the index just after the escape.
 */
export function decodeAnsiCEscape(source: string, index: number): { readonly text: string; readonly end: number } {
  const letter = source[index + 1];
  if (letter === undefined) return { text: '\\', end: index + 1 };
  const simple = SIMPLE_ESCAPES[letter];
  if (simple !== undefined) return { text: simple, end: index + 2 };
  const rest = source.slice(index + 1, index + 12);
  const octal = OCTAL.exec(rest);
  if (octal !== null) {
    return { text: String.fromCharCode(Number.parseInt(octal[0], 8) & 0xff), end: index + 1 + octal[0].length };
  }
  if (letter === 'x' || letter === 'u' || letter === 'U') {
    const maxDigits = letter === 'x' ? 2 : letter === 'u' ? 4 : 8;
    const digits = (HEX.exec(rest.slice(1))?.[0] ?? '').slice(0, maxDigits);
    const codePoint = Number.parseInt(digits, 16);
    if (digits.length > 0 && codePoint <= 0x10ffff) {
      return { text: String.fromCodePoint(codePoint), end: index + 2 + digits.length };
    }
  }
  if (letter === 'c' && index + 2 < source.length) {
    const control = (source[index + 2] as string).toUpperCase().charCodeAt(0) & 0x1f;
    return { text: String.fromCharCode(control), end: index + 3 };
  }
  return { text: `\\${letter}`, end: index + 2 };
}
