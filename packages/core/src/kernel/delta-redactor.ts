import type { SecurityProvider } from '../security/security-provider.js';

/** Longest trailing word held back between output deltas, in characters. */
export const MAX_HELD_DELTA_CHARS = 512;

/** Characters of tokens, keys and base64: what a secret split by a chunk boundary is made of. */
const SECRET_CHARACTER = /[A-Za-z0-9_\-+/=.~:]/;

const KEY_BEGIN = /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----/g;
const KEY_END = /-----END [A-Z0-9 ]*PRIVATE KEY-----/g;

function lastIndexOfPattern(text: string, pattern: RegExp): number {
  pattern.lastIndex = 0;
  let last = -1;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) last = match.index;
  return last;
}

/**
 * Redacts a stream of output deltas as ONE text: a secret split across two chunks would pass a
 * per-chunk redaction in two harmless-looking halves. The trailing run of token characters of
 * each chunk (up to {@link MAX_HELD_DELTA_CHARS}) is held back until the next chunk shows where
 * it ends, and a private-key block is withheld from its BEGIN line to its END line. What is held
 * at the end reaches the host in the call's final (redacted) output.
 */
export class DeltaRedactor {
  readonly #security: SecurityProvider;
  #held = '';
  #inKey = false;

  constructor(security: SecurityProvider) {
    this.#security = security;
  }

  /** The redacted text to emit for `chunk` (possibly empty). */
  push(chunk: string): string {
    let text = this.#held + chunk;
    let cut = text.length;
    // Only a trailing run of characters a secret can be made of is held back.
    while (cut > 0 && SECRET_CHARACTER.test(text[cut - 1] as string)) cut -= 1;
    if (text.length - cut > MAX_HELD_DELTA_CHARS) cut = text.length - MAX_HELD_DELTA_CHARS;
    this.#held = text.slice(cut);
    text = text.slice(0, cut);
    if (this.#inKey) {
      const end = lastIndexOfPattern(text, KEY_END);
      if (end === -1) return '';
      this.#inKey = false;
      text = `${this.#security.redact('-----BEGIN PRIVATE KEY-----\n')}${text.slice(text.indexOf('-----', end + 5) + 5)}`;
    }
    if (lastIndexOfPattern(text, KEY_BEGIN) > lastIndexOfPattern(text, KEY_END)) this.#inKey = true;
    return this.#security.redact(text);
  }
}
