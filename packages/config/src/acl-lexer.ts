import { aclSyntaxError, type AclPosition } from './acl-syntax-error.js';

/** Kinds of ACL tokens. Newlines are not tokens: every ACL construct delimits itself. */
export type AclTokenKind =
  | 'identifier'
  | 'string'
  | 'number'
  | '{'
  | '}'
  | '['
  | ']'
  | '('
  | ')'
  | '='
  | ':'
  | ','
  | 'eof';

/** One lexical token with its start position. */
export interface AclToken extends AclPosition {
  readonly kind: AclTokenKind;
  /** Source text for identifiers, decoded text for strings/heredocs, empty for punctuation. */
  readonly text: string;
  /** Parsed value of a number token. */
  readonly number?: number;
}

const PUNCTUATION = new Set(['{', '}', '[', ']', '(', ')', '=', ':', ',']);
const IDENT_START = /[A-Za-z_]/;
const IDENT_PART = /[A-Za-z0-9_-]/;
const DIGIT = /[0-9]/;
const HEX4 = /^[0-9a-fA-F]{4}$/;
const HEX8 = /^[0-9a-fA-F]{8}$/;
const SIMPLE_ESCAPES: Readonly<Record<string, string>> = { n: '\n', t: '\t', r: '\r', '"': '"', '\\': '\\', '/': '/' };

/**
 * Splits ACL source into tokens. Comments (`#`, `//`, `/* *\/`) and whitespace are skipped.
 * Throws a CONFIG_ERROR naming line and column on the first malformed token.
 */
export function tokenizeAcl(source: string, file?: string): AclToken[] {
  return new AclLexer(source, file).run();
}

class AclLexer {
  readonly #source: string;
  readonly #file: string | undefined;
  #index = 0;
  #line = 1;
  #lineStart = 0;

  constructor(source: string, file: string | undefined) {
    this.#source = source;
    this.#file = file;
  }

  run(): AclToken[] {
    const tokens: AclToken[] = [];
    for (;;) {
      this.#skipTrivia();
      const start = this.#position();
      const char = this.#source[this.#index];
      if (char === undefined) {
        tokens.push({ kind: 'eof', text: '', ...start });
        return tokens;
      }
      if (PUNCTUATION.has(char)) {
        this.#index += 1;
        tokens.push({ kind: char as AclTokenKind, text: char, ...start });
      } else if (char === '"') {
        tokens.push({ kind: 'string', text: this.#readString(start), ...start });
      } else if (char === '<' && this.#source.startsWith('<<', this.#index)) {
        tokens.push({ kind: 'string', text: this.#readHeredoc(start), ...start });
      } else if (DIGIT.test(char) || (char === '-' && DIGIT.test(this.#source[this.#index + 1] ?? ''))) {
        const text = this.#readNumber(start);
        tokens.push({ kind: 'number', text, number: Number(text), ...start });
      } else if (IDENT_START.test(char)) {
        let end = this.#index + 1;
        while (end < this.#source.length && IDENT_PART.test(this.#source[end] ?? '')) end += 1;
        tokens.push({ kind: 'identifier', text: this.#source.slice(this.#index, end), ...start });
        this.#index = end;
      } else {
        throw this.#error(`unexpected character ${JSON.stringify(char)}`, start);
      }
    }
  }

  #position(): AclPosition {
    return { line: this.#line, column: this.#index - this.#lineStart + 1 };
  }

  #error(message: string, position: AclPosition): Error {
    return aclSyntaxError(message, position, this.#file);
  }

  #newline(): void {
    this.#line += 1;
    this.#lineStart = this.#index;
  }

  #skipTrivia(): void {
    const source = this.#source;
    while (this.#index < source.length) {
      const char = source[this.#index];
      if (char === '\n') {
        this.#index += 1;
        this.#newline();
      } else if (char === ' ' || char === '\t' || char === '\r' || char === '\uFEFF') {
        this.#index += 1;
      } else if (char === '#' || source.startsWith('//', this.#index)) {
        while (this.#index < source.length && source[this.#index] !== '\n') this.#index += 1;
      } else if (source.startsWith('/*', this.#index)) {
        const start = this.#position();
        this.#index += 2;
        for (;;) {
          if (this.#index >= source.length) throw this.#error('unterminated block comment', start);
          if (source.startsWith('*/', this.#index)) {
            this.#index += 2;
            break;
          }
          this.#index += 1;
          if (source[this.#index - 1] === '\n') this.#newline();
        }
      } else {
        return;
      }
    }
  }

  #readString(start: AclPosition): string {
    const source = this.#source;
    this.#index += 1;
    let text = '';
    for (;;) {
      const char = source[this.#index];
      if (char === undefined || char === '\n') throw this.#error('unterminated string (a quoted string ends on the line it starts; use a heredoc for multi-line text)', start);
      if (char === '"') {
        this.#index += 1;
        return text;
      }
      if (char !== '\\') {
        text += char;
        this.#index += 1;
        continue;
      }
      const escapePosition = this.#position();
      const code = source[this.#index + 1] ?? '';
      const simple = SIMPLE_ESCAPES[code];
      if (simple !== undefined) {
        text += simple;
        this.#index += 2;
      } else if (code === 'u' || code === 'U') {
        const length = code === 'u' ? 4 : 8;
        const hex = source.slice(this.#index + 2, this.#index + 2 + length);
        const codePoint = Number.parseInt(hex, 16);
        if (!(length === 4 ? HEX4 : HEX8).test(hex) || codePoint > 0x10ffff) {
          throw this.#error(`invalid unicode escape: \\${code} needs ${length} hex digits of a valid code point`, escapePosition);
        }
        text += String.fromCodePoint(codePoint);
        this.#index += 2 + length;
      } else {
        throw this.#error(`invalid escape sequence \\${code === '\n' || code === '' ? '' : code} (use \\n \\t \\r \\" \\\\ \\uXXXX)`, escapePosition);
      }
    }
  }

  #readNumber(start: AclPosition): string {
    const match = /^-?[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/.exec(this.#source.slice(this.#index));
    const text = match?.[0] ?? '';
    const next = this.#source[this.#index + text.length] ?? '';
    // `1.`, `1e`, `12ab` and `1.2.3` are typos, not a number followed by something else.
    if (/[A-Za-z0-9_.]/.test(next)) {
      let end = this.#index + text.length;
      while (end < this.#source.length && /[A-Za-z0-9_.+-]/.test(this.#source[end] ?? '')) end += 1;
      throw this.#error(`invalid number ${JSON.stringify(this.#source.slice(this.#index, end))}`, start);
    }
    this.#index += text.length;
    return text;
  }

  #readHeredoc(start: AclPosition): string {
    const source = this.#source;
    const header = /^<<(-?)([A-Za-z_][A-Za-z0-9_]*)[ \t]*\r?\n/.exec(source.slice(this.#index));
    if (header === null) throw this.#error('invalid heredoc: expected <<MARKER or <<-MARKER followed by a newline', start);
    const indented = header[1] === '-';
    const marker = header[2] ?? '';
    this.#index += header[0].length;
    this.#newline();
    const lines: string[] = [];
    for (;;) {
      if (this.#index >= source.length) throw this.#error(`unterminated heredoc: no closing line '${marker}'`, start);
      const newline = source.indexOf('\n', this.#index);
      const end = newline === -1 ? source.length : newline;
      const line = source.slice(this.#index, end).replace(/\r$/, '');
      this.#index = end;
      if (line.trim() === marker) break;
      lines.push(line);
      if (newline === -1) throw this.#error(`unterminated heredoc: no closing line '${marker}'`, start);
      this.#index += 1;
      this.#newline();
    }
    if (lines.length === 0) return '';
    return `${(indented ? stripCommonIndent(lines) : lines).join('\n')}\n`;
  }
}

/** Removes the whitespace prefix shared by every non-blank line (the `<<-` heredoc form). */
function stripCommonIndent(lines: readonly string[]): string[] {
  let indent = Number.POSITIVE_INFINITY;
  for (const line of lines) {
    if (line.trim() === '') continue;
    indent = Math.min(indent, /^[ \t]*/.exec(line)?.[0].length ?? 0);
  }
  if (!Number.isFinite(indent)) return lines.map(() => '');
  return lines.map((line) => line.slice(indent));
}
