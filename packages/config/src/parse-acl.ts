import type { AclAttribute, AclBlock, AclBody, AclDocument, AclValue, AclWarning } from './acl-document.js';
import { tokenizeAcl, type AclToken } from './acl-lexer.js';
import { aclSyntaxError, type AclPosition } from './acl-syntax-error.js';

/** Options of {@link parseAcl}. */
export interface ParseAclOptions {
  /** File name used in error messages and warnings. Default: none (messages say `line L, column C`). */
  readonly file?: string;
  /**
   * Variables visible to `env("NAME")`. Default: `process.env`. Pass an explicit map to keep
   * parsing hermetic (tests, multi-tenant hosts).
   */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** Deepest nesting of blocks, lists and objects accepted; deeper input is refused, not a stack overflow. */
export const MAX_ACL_NESTING_DEPTH = 128;

/**
 * Parses ACL text (the HCL-like language of `agent.acl`) into a generic {@link AclDocument}.
 *
 * Grammar: a body is a sequence of attributes `name = value` and blocks `type "label"... { body }`,
 * separated by whitespace or newlines. Values are strings (with `\n \t \r \" \\ \/ \uXXXX
 * \UXXXXXXXX` escapes), heredocs (`<<EOT` / `<<-EOT`, no escapes), numbers, `true`, `false`,
 * `null`, lists `[a, b,]` and objects `{ k = v, k2: v2 }` (entries separated by commas or
 * whitespace). `env("NAME")` and `env("NAME", default)` read a variable; a missing variable with
 * no default becomes `null` and adds a `missing_env` warning. Comments: `#`, `//`, `/* *\/`.
 *
 * @throws CodeError CONFIG_ERROR whose message names the line and column; `details` is
 *   `{ line, column, file? }`.
 */
export function parseAcl(text: string, options: ParseAclOptions = {}): AclDocument {
  const parser = new AclParser(tokenizeAcl(text, options.file), options);
  const body = parser.parseBody(null, 0);
  return { ...(options.file === undefined ? {} : { file: options.file }), body, warnings: parser.warnings };
}

function describe(token: AclToken): string {
  switch (token.kind) {
    case 'eof':
      return 'end of input';
    case 'identifier':
      return `identifier '${token.text}'`;
    case 'string':
      return `string ${JSON.stringify(token.text.length > 40 ? `${token.text.slice(0, 40)}...` : token.text)}`;
    case 'number':
      return `number ${token.text}`;
    default:
      return `'${token.kind}'`;
  }
}

class AclParser {
  readonly warnings: AclWarning[] = [];
  readonly #tokens: readonly AclToken[];
  readonly #file: string | undefined;
  readonly #env: Readonly<Record<string, string | undefined>>;
  #index = 0;

  constructor(tokens: readonly AclToken[], options: ParseAclOptions) {
    this.#tokens = tokens;
    this.#file = options.file;
    this.#env = options.env ?? (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env ?? {};
  }

  #peek(offset = 0): AclToken {
    // The token list always ends with `eof`, so clamping keeps every peek defined.
    return this.#tokens[Math.min(this.#index + offset, this.#tokens.length - 1)] as AclToken;
  }

  #next(): AclToken {
    const token = this.#peek();
    if (token.kind !== 'eof') this.#index += 1;
    return token;
  }

  #error(message: string, position: AclPosition): Error {
    return aclSyntaxError(message, position, this.#file);
  }

  #expect(kind: AclToken['kind'], what: string): AclToken {
    const token = this.#peek();
    if (token.kind !== kind) throw this.#error(`expected ${what}, found ${describe(token)}`, token);
    return this.#next();
  }

  #checkDepth(depth: number, at: AclPosition): void {
    if (depth > MAX_ACL_NESTING_DEPTH) throw this.#error(`nesting deeper than ${MAX_ACL_NESTING_DEPTH} levels`, at);
  }

  /** Parses items until `}` (when `opener` is a block) or end of input (top level). */
  parseBody(opener: AclToken | null, depth: number): AclBody {
    const attributes: AclAttribute[] = [];
    const blocks: AclBlock[] = [];
    const attributeNames = new Map<string, AclPosition>();
    for (;;) {
      const token = this.#peek();
      if (token.kind === 'eof') {
        if (opener !== null) throw this.#error(`unexpected end of input: missing '}' to close the block opened at line ${opener.line}, column ${opener.column}`, token);
        return { attributes, blocks };
      }
      if (token.kind === '}') {
        if (opener === null) throw this.#error("unexpected '}' with no open block", token);
        this.#next();
        return { attributes, blocks };
      }
      if (token.kind !== 'identifier') throw this.#error(`expected an attribute or block name, found ${describe(token)}`, token);
      this.#next();
      const after = this.#peek();
      if (after.kind === '=') {
        this.#next();
        const previous = attributeNames.get(token.text);
        if (previous !== undefined) throw this.#error(`attribute '${token.text}' is already defined at line ${previous.line}, column ${previous.column}`, token);
        if (blocks.some((block) => block.type === token.text)) throw this.#error(`'${token.text}' is already used as a block name in this body`, token);
        attributeNames.set(token.text, token);
        attributes.push({ name: token.text, value: this.#parseValue(depth + 1), line: token.line, column: token.column });
        continue;
      }
      const labels: string[] = [];
      while (this.#peek().kind === 'string' || this.#peek().kind === 'identifier') labels.push(this.#next().text);
      const brace = this.#peek();
      if (brace.kind !== '{') {
        const hint = labels.length === 0 ? `'=' or '{' after '${token.text}'` : `'{' to open block '${token.text}'`;
        throw this.#error(`expected ${hint}, found ${describe(brace)}`, brace);
      }
      if (attributeNames.has(token.text)) throw this.#error(`'${token.text}' is already used as an attribute name in this body`, token);
      this.#checkDepth(depth + 1, brace);
      this.#next();
      const body = this.parseBody(brace, depth + 1);
      blocks.push({ type: token.text, labels, body, line: token.line, column: token.column });
    }
  }

  #parseValue(depth: number): AclValue {
    const token = this.#peek();
    this.#checkDepth(depth, token);
    switch (token.kind) {
      case 'string':
        this.#next();
        return token.text;
      case 'number':
        this.#next();
        return token.number ?? Number(token.text);
      case '[':
        return this.#parseList(depth);
      case '{':
        return this.#parseObject(depth);
      case 'identifier':
        this.#next();
        if (this.#peek().kind === '(') return this.#parseCall(token, depth);
        if (token.text === 'true') return true;
        if (token.text === 'false') return false;
        if (token.text === 'null') return null;
        throw this.#error(`unknown value '${token.text}' (strings need double quotes: "${token.text}")`, token);
      default:
        throw this.#error(`expected a value, found ${describe(token)}`, token);
    }
  }

  #parseList(depth: number): AclValue[] {
    const open = this.#next();
    const items: AclValue[] = [];
    for (;;) {
      const token = this.#peek();
      if (token.kind === ']') {
        this.#next();
        return items;
      }
      if (token.kind === 'eof') throw this.#error(`unexpected end of input: missing ']' to close the list opened at line ${open.line}, column ${open.column}`, token);
      items.push(this.#parseValue(depth + 1));
      const separator = this.#peek();
      if (separator.kind === ',') this.#next();
      else if (separator.kind !== ']') {
        if (separator.kind === 'eof') throw this.#error(`unexpected end of input: missing ']' to close the list opened at line ${open.line}, column ${open.column}`, separator);
        throw this.#error(`expected ',' or ']' in list, found ${describe(separator)}`, separator);
      }
    }
  }

  #parseObject(depth: number): AclValue {
    const open = this.#next();
    const entries: [string, AclValue][] = [];
    const seen = new Map<string, AclPosition>();
    for (;;) {
      const token = this.#peek();
      if (token.kind === '}') {
        this.#next();
        // fromEntries defines own data properties, so a `__proto__` key cannot change the prototype.
        return Object.fromEntries(entries) as AclValue;
      }
      if (token.kind === 'eof') throw this.#error(`unexpected end of input: missing '}' to close the object opened at line ${open.line}, column ${open.column}`, token);
      if (token.kind !== 'identifier' && token.kind !== 'string') throw this.#error(`expected an object key, found ${describe(token)}`, token);
      this.#next();
      const operator = this.#peek();
      if (operator.kind !== '=' && operator.kind !== ':') throw this.#error(`expected '=' or ':' after key '${token.text}', found ${describe(operator)}`, operator);
      this.#next();
      const previous = seen.get(token.text);
      if (previous !== undefined) throw this.#error(`key '${token.text}' is already defined at line ${previous.line}, column ${previous.column}`, token);
      seen.set(token.text, token);
      entries.push([token.text, this.#parseValue(depth + 1)]);
      if (this.#peek().kind === ',') this.#next();
    }
  }

  #parseCall(name: AclToken, depth: number): AclValue {
    this.#next();
    const args: AclValue[] = [];
    while (this.#peek().kind !== ')') {
      if (this.#peek().kind === 'eof') throw this.#error(`unexpected end of input: missing ')' to close the call to '${name.text}'`, this.#peek());
      args.push(this.#parseValue(depth + 1));
      const separator = this.#peek();
      if (separator.kind === ',') this.#next();
      else if (separator.kind === 'eof') throw this.#error(`unexpected end of input: missing ')' to close the call to '${name.text}'`, separator);
      else if (separator.kind !== ')') throw this.#error(`expected ',' or ')' in call to '${name.text}', found ${describe(separator)}`, separator);
    }
    this.#next();
    if (name.text !== 'env') throw this.#error(`unknown function '${name.text}' (only env("NAME") is available)`, name);
    const variable = args[0];
    if (args.length < 1 || args.length > 2 || typeof variable !== 'string' || variable === '') {
      throw this.#error('env() takes a variable name string and an optional default: env("NAME") or env("NAME", "default")', name);
    }
    const value = this.#env[variable];
    if (value !== undefined) return value;
    if (args.length === 2) return args[1] ?? null;
    this.warnings.push({
      kind: 'missing_env',
      name: variable,
      message: `environment variable ${variable} is not set; env("${variable}") is null`,
      line: name.line,
      column: name.column,
      ...(this.#file === undefined ? {} : { file: this.#file }),
    });
    return null;
  }
}
