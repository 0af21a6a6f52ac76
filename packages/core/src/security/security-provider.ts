/**
 * Redacts secrets from text and values before they leave the kernel: tool outputs, error
 * messages, event payloads, hook payloads. The kernel redacts BEFORE it truncates, so a secret
 * cut in half by a byte bound can never leak its visible half.
 */
export interface SecurityProvider {
  /** Returns `text` with every secret replaced by a marker. */
  redact(text: string): string;
  /**
   * Returns `value` with every string inside (recursively, arrays and plain objects) redacted.
   * Implementations should return the SAME reference when nothing changed, so callers can skip
   * copying.
   */
  redactValue(value: unknown): unknown;
}

/** Options of {@link DefaultSecurityProvider}. */
export interface DefaultSecurityProviderOptions {
  /**
   * Literal secret values to redact wherever they appear (the SDK passes the values of
   * environment variables whose names contain KEY, SECRET, TOKEN or PASSWORD). Values shorter
   * than {@link MIN_SECRET_VALUE_LENGTH} characters are ignored: redacting `"1"` everywhere
   * would destroy output without protecting anything. Default: none.
   */
  readonly secretValues?: readonly string[];
  /** Text that replaces a secret. Default `[REDACTED]`. */
  readonly marker?: string;
}

/** Shortest literal secret value {@link DefaultSecurityProvider} redacts. */
export const MIN_SECRET_VALUE_LENGTH = 6;

/** The default replacement text for a redacted secret. */
export const REDACTION_MARKER = '[REDACTED]';

/**
 * Patterns whose whole match is a secret, each with a literal it cannot match without (a cheap
 * pre-filter per pattern: text without `PRIVATE KEY` never runs the PEM patterns, whose
 * backwards-anchored tail form is quadratic over long base64-like runs such as path listings).
 * Order matters: specific shapes before generic ones.
 */
const WHOLE_MATCH_PATTERNS: readonly (readonly [RegExp, RegExp])[] = [
  // PEM private key blocks, including an unterminated block at the end of a truncated stream.
  [/-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|$)/g, /PRIVATE KEY/],
  // The body and END line of a key block whose BEGIN was cut off (the tail of a truncated stream).
  [/[A-Za-z0-9+/=\r\n]{40,}-----END [A-Z0-9 ]*PRIVATE KEY-----/g, /PRIVATE KEY/],
  // Anthropic, OpenAI (sk-, sk-proj-) and look-alike provider keys.
  [/\bsk-(?:ant-)?[A-Za-z0-9_-]{16,}/g, /sk-/],
  // AWS access key ids.
  [/\b(?:AKIA|ASIA)[A-Z0-9]{16}\b/g, /AKIA|ASIA/],
  // GitHub tokens (classic and fine-grained).
  [/\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{20,})/g, /gh[pousr]_|github_pat_/],
  // Slack tokens.
  [/\bxox[abposr]-[A-Za-z0-9-]{10,}/g, /xox/],
  // Google API keys.
  [/\bAIza[0-9A-Za-z_-]{30,}/g, /AIza/],
  // GitLab personal/project tokens, npm tokens, Hugging Face tokens.
  [/\b(?:glpat-[A-Za-z0-9_-]{20,}|npm_[A-Za-z0-9]{36}|hf_[A-Za-z0-9]{30,})/g, /glpat-|npm_|hf_/],
  // Stripe secret and restricted keys.
  [/\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}/g, /_live_|_test_/],
  // JSON Web Tokens (three base64url parts, the first two JSON objects).
  [/\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/g, /eyJ/],
];

/** Patterns whose group 1 is kept (the label) and the rest is the secret; each with its pre-filter. */
const LABELLED_PATTERNS: readonly (readonly [RegExp, RegExp])[] = [
  // Authorization headers of any scheme: keep the header name, drop the credentials.
  [/(\bauthorization["']?\s*[:=]\s*["']?)[^\r\n"',;]+/gi, /authorization/i],
  // Bearer tokens outside an Authorization header.
  [/(\bbearer\s+)[A-Za-z0-9._~+/-]{8,}=*/gi, /bearer/i],
  // Deliberately no generic `key = <long value>` rule: it matched ordinary code
  // (`const cacheKey = computeCacheKeyFor(req)`), and the agent wrote the marker back into
  // source. Other secrets are redacted by value (`secretValues`).
];

/** Object keys whose string values are secrets whatever they look like. */
const SECRET_KEY_NAME = /^(?:.*[_-])?(?:api[_-]?key|apikey|secret|secret[_-]?key|access[_-]?key|token|access[_-]?token|refresh[_-]?token|password|passwd|authorization)$/i;

/** Characters that must appear for any built-in pattern to match; a cheap pre-filter. */
const TRIGGER = /sk-|AKIA|ASIA|gh[pousr]_|github_pat_|xox|AIza|glpat-|npm_|hf_|_live_|_test_|eyJ|PRIVATE KEY|bearer|authorization/i;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The default {@link SecurityProvider}: redacts common API-key shapes (Anthropic/OpenAI `sk-`,
 * AWS `AKIA`, GitHub `ghp_`/`github_pat_`, Slack `xox?-`, Google `AIza`, GitLab `glpat-`, npm
 * `npm_`, Hugging Face `hf_`, Stripe `sk_live_`, JWTs), `Bearer` tokens and `Authorization`
 * headers, PEM private-key blocks, string values stored under secret-named object keys, and the
 * literal `secretValues` it was given. High-precision patterns only: no generic `key = value`
 * rule, which would rewrite ordinary code.
 */
export class DefaultSecurityProvider implements SecurityProvider {
  readonly #marker: string;
  readonly #literal: RegExp | null;

  constructor(options: DefaultSecurityProviderOptions = {}) {
    this.#marker = options.marker ?? REDACTION_MARKER;
    const values = [...new Set((options.secretValues ?? []).filter((v) => typeof v === 'string' && v.length >= MIN_SECRET_VALUE_LENGTH))];
    // Longest first so a value that contains another is replaced whole.
    values.sort((a, b) => b.length - a.length);
    this.#literal = values.length === 0 ? null : new RegExp(values.map(escapeRegExp).join('|'), 'g');
  }

  /** @inheritdoc */
  redact(text: string): string {
    let out = text;
    if (this.#literal !== null) {
      this.#literal.lastIndex = 0;
      if (this.#literal.test(out)) out = out.replace(this.#literal, this.#marker);
    }
    if (!TRIGGER.test(out)) return out;
    // A pattern runs only when its literal is in the text as it is now (earlier replacements
    // insert only the marker, so this skips exactly the patterns that cannot match).
    for (const [pattern, literal] of WHOLE_MATCH_PATTERNS) if (literal.test(out)) out = out.replace(pattern, this.#marker);
    for (const [pattern, literal] of LABELLED_PATTERNS) if (literal.test(out)) out = out.replace(pattern, (_match, label: string) => label + this.#marker);
    return out;
  }

  /** @inheritdoc */
  redactValue(value: unknown): unknown {
    return this.#redactValue(value, 0);
  }

  #redactValue(value: unknown, depth: number): unknown {
    if (typeof value === 'string') return this.redact(value);
    if (typeof value !== 'object' || value === null) return value;
    // Deep structures are cut rather than walked forever (and cycles end here too).
    if (depth > 32) return this.#marker;
    if (Array.isArray(value)) {
      let copy: unknown[] | null = null;
      for (let i = 0; i < value.length; i += 1) {
        const item: unknown = value[i];
        const redacted = this.#redactValue(item, depth + 1);
        if (redacted !== item) {
          copy ??= value.slice();
          copy[i] = redacted;
        }
      }
      return copy ?? value;
    }
    const proto: unknown = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) return value;
    const record = value as Record<string, unknown>;
    let copy: Record<string, unknown> | null = null;
    for (const key in record) {
      if (!Object.prototype.hasOwnProperty.call(record, key)) continue;
      const item = record[key];
      const redacted = typeof item === 'string' && item.length > 0 && SECRET_KEY_NAME.test(key) ? this.#marker : this.#redactValue(item, depth + 1);
      if (redacted !== item) {
        copy ??= { ...record };
        copy[key] = redacted;
      }
    }
    return copy ?? value;
  }
}

/** A provider that changes nothing; for hosts that redact elsewhere and for benchmarks. */
export const NO_REDACTION: SecurityProvider = Object.freeze({
  redact: (text: string) => text,
  redactValue: (value: unknown) => value,
});
