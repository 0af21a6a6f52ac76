import { decodeAnsiCEscape } from './ansi-c-escape.js';
import { describeSource, findUnusualCharacter, MAX_SHELL_NESTING_DEPTH } from './shell-issue.js';
import type { ShellIssue, ShellIssueKind } from './shell-issue.js';

/** Control operators that separate (or group) commands. `\n` and `\r` are separators too. */
export type ShellOperator = ';' | '&' | '&&' | '||' | '|' | '|&' | ';;' | ';&' | ';;&' | '(' | ')' | '\n' | '\r';

/** Redirection operators; an optional fd number (`2>`) is the word just before, unspaced. */
export type ShellRedirectOperator = '<' | '>' | '>>' | '>|' | '<>' | '<&' | '>&' | '&>' | '&>>' | '<<' | '<<-' | '<<<';

/** A word after quote removal. Expansions stay as their source text (`$HOME`, `$(id)`). */
export interface ShellWordToken {
  readonly type: 'word';
  /** The word after quote removal and escape processing. */
  readonly value: string;
  /** The word as written. */
  readonly raw: string;
  readonly start: number;
  readonly end: number;
  /** True when any part was quoted or escaped (so it can never be a reserved word). */
  readonly quoted: boolean;
}

/** A control operator. */
export interface ShellOperatorToken {
  readonly type: 'operator';
  readonly operator: ShellOperator;
  readonly start: number;
  readonly end: number;
}

/** A redirection operator; the next word token is its target (or here-document delimiter). */
export interface ShellRedirectToken {
  readonly type: 'redirect';
  readonly operator: ShellRedirectOperator;
  readonly start: number;
  readonly end: number;
}

/** One lexical token of a shell command list. */
export type ShellToken = ShellWordToken | ShellOperatorToken | ShellRedirectToken;

/** A command list that runs inside another: `$( )`, backticks, `<( )`, `>( )`. */
export interface ShellSubstitution {
  readonly kind: 'command' | 'backtick' | 'process';
  /** The substitution as written, e.g. `$(rm -rf /)`. */
  readonly source: string;
  /** The tokens of the inner command list. */
  readonly body: ShellTokenization;
}

/** The tokens of one command list plus what the lexer saw on the way. */
export interface ShellTokenization {
  readonly tokens: readonly ShellToken[];
  /** Substitutions found directly at this level (their own nested ones live in their bodies). */
  readonly substitutions: readonly ShellSubstitution[];
  /** Constructs that make the list not provably simple, in source order. */
  readonly issues: readonly ShellIssue[];
}

const OPERATORS = ['&>>', ';;&', '<<<', '<<-', '&&', '||', '|&', ';;', ';&', '&>', '>>', '>|', '<>', '<&', '>&', '<<', ';', '&', '|', '<', '>'] as const;
const REDIRECTS: ReadonlySet<string> = new Set(['<', '>', '>>', '>|', '<>', '<&', '>&', '&>', '&>>', '<<', '<<-', '<<<']);
const WORD_BREAK: ReadonlySet<string> = new Set([' ', '\t', '\n', '\r', ';', '&', '|', '(', ')', '<', '>']);
const NAME_START = /[A-Za-z_]/;
const NAME_CHAR = /[A-Za-z0-9_]/;
const SPECIAL_PARAMETER = /[0-9@*#?$!-]/;

interface Collector {
  tokens: ShellToken[];
  substitutions: ShellSubstitution[];
  issues: ShellIssue[];
  heredocs: { delimiter: string; stripTabs: boolean; expands: boolean }[];
}

function newCollector(): Collector {
  return { tokens: [], substitutions: [], issues: [], heredocs: [] };
}

function seal(collector: Collector): ShellTokenization {
  return { tokens: collector.tokens, substitutions: collector.substitutions, issues: collector.issues };
}

/**
 * Splits a bash command string into tokens following the shell's own lexical rules: blanks,
 * single quotes, double quotes, `$'...'` ANSI-C quotes, backslash escapes, line continuations,
 * `#` comments at word start, operators, here-documents, and the nested command lists of
 * `$( )`, backticks and `<( )` (lexed recursively, so a `)` inside quotes does not end them).
 * Never throws: malformed input yields `parse_error` issues.
 *
 * @param depth nesting level of `source` itself (used when re-lexing backtick bodies and
 *   `bash -c` scripts); lexing stops with a `nesting_limit` issue past {@link MAX_SHELL_NESTING_DEPTH}.
 */
export function tokenizeShell(source: string, depth = 0): ShellTokenization {
  const lexer = new ShellLexer(source, depth);
  lexer.lexList(false);
  return lexer.result();
}

class ShellLexer {
  private pos = 0;
  private out: Collector = newCollector();
  private aborted = false;

  constructor(
    private readonly source: string,
    private nesting: number,
  ) {}

  result(): ShellTokenization {
    return seal(this.out);
  }

  /** Lexes a command list. In paren mode it stops after the `)` closing it and returns true. */
  lexList(untilParen: boolean): boolean {
    let depth = 0;
    while (this.pos < this.source.length && !this.aborted) {
      const char = this.source[this.pos] as string;
      const next = this.source[this.pos + 1];
      if (char === ' ' || char === '\t') this.pos += 1;
      else if (char === '\\' && next === '\n') this.pos += 2;
      else if (char === '#') this.skipComment();
      else if (char === '\n' || char === '\r') {
        this.pushOperator(char, 1);
        if (char === '\n') this.readHereDocumentBodies();
      } else if (char === '(') {
        depth += 1;
        this.pushOperator('(', 1);
      } else if (char === ')') {
        if (untilParen && depth === 0) {
          this.pos += 1;
          return true;
        }
        depth -= 1;
        this.pushOperator(')', 1);
      } else if ((char === '<' || char === '>') && next === '(') this.readWord();
      else if (char === ';' || char === '&' || char === '|' || char === '<' || char === '>') this.readOperator();
      else this.readWord();
    }
    return false;
  }

  private issue(kind: ShellIssueKind, detail: string): void {
    this.out.issues.push({ kind, detail });
  }

  private pushOperator(operator: ShellOperator, length: number): void {
    this.out.tokens.push({ type: 'operator', operator, start: this.pos, end: this.pos + length });
    this.pos += length;
  }

  private skipComment(): void {
    // A CR ends a comment too: we split on CR, so text after it must be seen as a command.
    while (this.pos < this.source.length && this.source[this.pos] !== '\n' && this.source[this.pos] !== '\r') this.pos += 1;
  }

  private readOperator(): void {
    const start = this.pos;
    const operator = OPERATORS.find((candidate) => this.source.startsWith(candidate, start)) ?? ';';
    if (!REDIRECTS.has(operator)) {
      this.pushOperator(operator as ShellOperator, operator.length);
      return;
    }
    this.pos += operator.length;
    this.out.tokens.push({ type: 'redirect', operator: operator as ShellRedirectOperator, start, end: this.pos });
    this.issue('redirection', `redirection \`${operator}\``);
    if (operator === '<<' || operator === '<<-') this.readHereDocumentDelimiter(operator === '<<-');
  }

  private readHereDocumentDelimiter(stripTabs: boolean): void {
    while (this.source[this.pos] === ' ' || this.source[this.pos] === '\t') this.pos += 1;
    const char = this.source[this.pos];
    if (char === undefined || WORD_BREAK.has(char)) {
      this.issue('parse_error', 'here-document without a delimiter');
      return;
    }
    const word = this.readWord();
    this.out.heredocs.push({ delimiter: word.value, stripTabs, expands: !word.quoted });
  }

  /** Skips the bodies of here-documents opened on the line that just ended. */
  private readHereDocumentBodies(): void {
    for (const heredoc of this.out.heredocs.splice(0)) {
      const bodyStart = this.pos;
      let bodyEnd = this.source.length;
      while (this.pos < this.source.length) {
        const newline = this.source.indexOf('\n', this.pos);
        const lineEnd = newline === -1 ? this.source.length : newline;
        const line = this.source.slice(this.pos, lineEnd);
        const atDelimiter = (heredoc.stripTabs ? line.replace(/^\t+/, '') : line) === heredoc.delimiter;
        if (atDelimiter) bodyEnd = this.pos;
        this.pos = newline === -1 ? this.source.length : newline + 1;
        if (atDelimiter) break;
      }
      // An unquoted delimiter means the body is expanded: `$(...)` in it runs.
      if (heredoc.expands) {
        const body = this.nestedLexer(this.source.slice(bodyStart, bodyEnd));
        if (body !== null) {
          body.readDoubleQuotedContent(null);
          this.out.substitutions.push(...body.out.substitutions);
        }
      }
    }
  }

  private nestedLexer(source: string): ShellLexer | null {
    if (this.nesting >= MAX_SHELL_NESTING_DEPTH) {
      this.issue('nesting_limit', `nesting deeper than ${MAX_SHELL_NESTING_DEPTH} levels`);
      this.aborted = true;
      return null;
    }
    return new ShellLexer(source, this.nesting + 1);
  }

  private readWord(): ShellWordToken {
    const start = this.pos;
    let value = '';
    let quoted = false;
    let glob = false;
    let openBracket = false;
    let braceDepth = 0;
    let braceSeparator = false;
    let brace = false;
    while (this.pos < this.source.length && !this.aborted) {
      const char = this.source[this.pos] as string;
      const next = this.source[this.pos + 1];
      if ((char === '<' || char === '>') && next === '(' && this.pos === start) {
        value += this.readSubstitution(start, 'process');
        continue;
      }
      if (WORD_BREAK.has(char)) break;
      if (char === '\\') {
        if (next === undefined) {
          this.issue('parse_error', 'trailing backslash');
          this.pos += 1;
        } else if (next === '\n') this.pos += 2;
        else {
          value += next;
          quoted = true;
          this.pos += 2;
        }
        continue;
      }
      if (char === "'") {
        value += this.readSingleQuoted();
        quoted = true;
        continue;
      }
      if (char === '"') {
        value += this.readDoubleQuoted();
        quoted = true;
        continue;
      }
      if (char === '$') {
        const part = this.readDollar(false);
        value += part.text;
        quoted ||= part.quoted;
        continue;
      }
      if (char === '`') {
        value += this.readBacktick(false);
        continue;
      }
      if (char === '*' || char === '?') glob = true;
      else if (char === '[') openBracket = true;
      else if (char === ']' && openBracket) glob = true;
      else if (char === '{') braceDepth += 1;
      else if (char === ',' && braceDepth > 0) braceSeparator = true;
      else if (char === '.' && next === '.' && braceDepth > 0) braceSeparator = true;
      else if (char === '}' && braceDepth > 0) {
        braceDepth -= 1;
        brace ||= braceSeparator;
      } else if (char === '~' && this.pos === start) this.issue('tilde_expansion', 'tilde expansion `~`');
      value += char;
      this.pos += 1;
    }
    const raw = this.source.slice(start, this.pos);
    if (glob) this.issue('pathname_expansion', `pathname expansion in \`${describeSource(raw)}\``);
    if (brace) this.issue('brace_expansion', `brace expansion in \`${describeSource(raw)}\``);
    const token: ShellWordToken = { type: 'word', value, raw, start, end: this.pos, quoted };
    this.out.tokens.push(token);
    return token;
  }

  private readSingleQuoted(): string {
    const close = this.source.indexOf("'", this.pos + 1);
    if (close === -1) {
      this.issue('parse_error', 'unterminated single quote');
      const rest = this.source.slice(this.pos + 1);
      this.pos = this.source.length;
      return rest;
    }
    const content = this.source.slice(this.pos + 1, close);
    this.pos = close + 1;
    return content;
  }

  private readDoubleQuoted(): string {
    this.pos += 1;
    const value = this.readDoubleQuotedContent('"');
    if (this.source[this.pos] === '"') this.pos += 1;
    else if (!this.aborted) this.issue('parse_error', 'unterminated double quote');
    return value;
  }

  /** Double-quote rules up to `terminator` (null: to the end, as in an expanding here-document). */
  readDoubleQuotedContent(terminator: '"' | null): string {
    let value = '';
    while (this.pos < this.source.length && !this.aborted) {
      const char = this.source[this.pos] as string;
      if (char === terminator) break;
      const next = this.source[this.pos + 1];
      if (char === '\\' && next === '\n') this.pos += 2;
      else if (char === '\\' && next !== undefined && (next === '$' || next === '`' || next === '\\' || next === terminator)) {
        value += next;
        this.pos += 2;
      } else if (char === '$') value += this.readDollar(true).text;
      else if (char === '`') value += this.readBacktick(true);
      else {
        value += char;
        this.pos += 1;
      }
    }
    return value;
  }

  private readDollar(inDoubleQuotes: boolean): { text: string; quoted: boolean } {
    const start = this.pos;
    const next = this.source[start + 1];
    if (next === "'" && !inDoubleQuotes) return { text: this.readAnsiC(), quoted: true };
    if (next === '"' && !inDoubleQuotes) {
      this.pos += 1;
      this.issue('parameter_expansion', 'locale translation `$"..."`');
      return { text: this.readDoubleQuoted(), quoted: true };
    }
    if (next === '(' && this.source[start + 2] === '(') return { text: this.readArithmetic(start), quoted: false };
    if (next === '(') return { text: this.readSubstitution(start, 'command'), quoted: false };
    if (next === '{' || next === '[') return { text: this.readBracedExpansion(start, inDoubleQuotes), quoted: false };
    let end = start + 1;
    if (next !== undefined && NAME_START.test(next)) {
      while (end < this.source.length && NAME_CHAR.test(this.source[end] as string)) end += 1;
    } else if (next !== undefined && SPECIAL_PARAMETER.test(next)) end += 1;
    else {
      this.pos += 1;
      return { text: '$', quoted: false };
    }
    const text = this.source.slice(start, end);
    this.pos = end;
    this.issue('parameter_expansion', `variable expansion \`${describeSource(text)}\``);
    return { text, quoted: false };
  }

  private readAnsiC(): string {
    const start = this.pos;
    this.pos += 2;
    let value = '';
    while (this.pos < this.source.length && this.source[this.pos] !== "'") {
      if (this.source[this.pos] === '\\') {
        const escape = decodeAnsiCEscape(this.source, this.pos);
        value += escape.text;
        this.pos = escape.end;
      } else {
        value += this.source[this.pos] as string;
        this.pos += 1;
      }
    }
    if (this.pos >= this.source.length) this.issue('parse_error', "unterminated ANSI-C quote `$'`");
    else this.pos += 1;
    const unusual = findUnusualCharacter(value.replace(/[\n\t]/g, ''));
    if (unusual !== null) {
      this.issue('unusual_character', `${unusual} produced by \`${describeSource(this.source.slice(start, this.pos))}\``);
    }
    return value;
  }

  /** `$( )` or `<( )` / `>( )`: lexes the inner list in paren mode and records it. */
  private readSubstitution(start: number, kind: 'command' | 'process'): string {
    this.pos = start + 2;
    const inner = this.lexNestedList();
    const source = this.source.slice(start, this.pos);
    const label = kind === 'command' ? 'command substitution' : 'process substitution';
    this.issue(kind === 'command' ? 'command_substitution' : 'process_substitution', `${label} \`${describeSource(source)}\``);
    if (inner === null) return source;
    if (!inner.closed) this.issue('parse_error', `unterminated ${label}`);
    this.out.substitutions.push({ kind, source, body: inner.body });
    return source;
  }

  /** `$(( ))`: found by lexing it like `$( ( ) )`; only the substitutions inside are kept. */
  private readArithmetic(start: number): string {
    this.pos = start + 2;
    const inner = this.lexNestedList();
    const source = this.source.slice(start, this.pos);
    this.issue('arithmetic_expansion', `arithmetic expansion \`${describeSource(source)}\``);
    if (inner === null) return source;
    if (!inner.closed) this.issue('parse_error', 'unterminated arithmetic expansion');
    this.out.substitutions.push(...inner.body.substitutions);
    return source;
  }

  private lexNestedList(): { closed: boolean; body: ShellTokenization } | null {
    if (this.nesting >= MAX_SHELL_NESTING_DEPTH) {
      this.issue('nesting_limit', `nesting deeper than ${MAX_SHELL_NESTING_DEPTH} levels`);
      this.aborted = true;
      return null;
    }
    const saved = this.out;
    this.out = newCollector();
    this.nesting += 1;
    try {
      const closed = this.lexList(true);
      return { closed, body: seal(this.out) };
    } finally {
      saved.issues.push(...this.out.issues.filter((issue) => issue.kind === 'nesting_limit'));
      this.out = saved;
      this.nesting -= 1;
    }
  }

  /** `${...}` or `$[...]`: scanned to the matching close, recording substitutions inside. */
  private readBracedExpansion(start: number, inDoubleQuotes: boolean): string {
    const open = this.source[start + 1] as string;
    const close = open === '{' ? '}' : ']';
    this.pos = start + 2;
    this.nesting += 1;
    let depth = 1;
    if (this.nesting > MAX_SHELL_NESTING_DEPTH) {
      this.issue('nesting_limit', `nesting deeper than ${MAX_SHELL_NESTING_DEPTH} levels`);
      this.aborted = true;
    }
    while (this.pos < this.source.length && !this.aborted) {
      const char = this.source[this.pos] as string;
      if (char === '\\') this.pos += 2;
      else if (char === "'" && !inDoubleQuotes) this.readSingleQuoted();
      else if (char === '"') this.readDoubleQuoted();
      else if (char === '$') this.readDollar(inDoubleQuotes);
      else if (char === '`') this.readBacktick(inDoubleQuotes);
      else {
        if (char === open) depth += 1;
        if (char === close) depth -= 1;
        this.pos += 1;
        if (depth === 0) break;
      }
    }
    this.nesting -= 1;
    const source = this.source.slice(start, Math.min(this.pos, this.source.length));
    if (open === '{') this.issue('parameter_expansion', `parameter expansion \`${describeSource(source)}\``);
    else this.issue('arithmetic_expansion', `arithmetic expansion \`${describeSource(source)}\``);
    if (depth !== 0 && !this.aborted) this.issue('parse_error', `unterminated \`$${open}\``);
    return source;
  }

  /** Backticks: the body is de-escaped (`\``, `\$`, `\\`) and lexed as its own source. */
  private readBacktick(inDoubleQuotes: boolean): string {
    const start = this.pos;
    let index = start + 1;
    let inner = '';
    let closed = false;
    while (index < this.source.length) {
      const char = this.source[index] as string;
      const next = this.source[index + 1];
      if (char === '\\' && next !== undefined && (next === '$' || next === '`' || next === '\\' || (inDoubleQuotes && next === '"'))) {
        inner += next;
        index += 2;
      } else if (char === '`') {
        closed = true;
        break;
      } else {
        inner += char;
        index += 1;
      }
    }
    this.pos = closed ? index + 1 : this.source.length;
    const source = this.source.slice(start, this.pos);
    this.issue('command_substitution', `command substitution \`${describeSource(source)}\``);
    if (!closed) this.issue('parse_error', 'unterminated backtick substitution');
    const lexer = this.nestedLexer(inner);
    if (lexer !== null) {
      lexer.lexList(false);
      if (lexer.aborted) this.aborted = true;
      this.out.substitutions.push({ kind: 'backtick', source, body: lexer.result() });
    }
    return source;
  }
}
