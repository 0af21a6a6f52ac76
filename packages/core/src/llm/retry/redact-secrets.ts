/** What a secret is replaced with in error messages. */
export const REDACTED = '[REDACTED]';

// Well-known key shapes (Anthropic `sk-ant-...`, OpenAI `sk-...`/`sk-proj-...`) and bearer
// tokens: redacted even when they are not the configured key (e.g. echoed by a proxy).
const KEY_PATTERNS: readonly RegExp[] = [/sk-[A-Za-z0-9_-]{12,}/g, /(Bearer\s+)[A-Za-z0-9._~+/=-]{8,}/gi];

/**
 * Removes API keys from a text that may reach logs or hosts (error messages). Every exact
 * occurrence of each of `secrets` is replaced, then well-known key shapes.
 */
export function redactSecrets(text: string, secrets: readonly (string | null | undefined)[]): string {
  let result = text;
  for (const secret of secrets) {
    // Very short "keys" (test placeholders like "x") would shred ordinary words.
    if (typeof secret === 'string' && secret.length >= 6) result = result.split(secret).join(REDACTED);
  }
  for (const pattern of KEY_PATTERNS) {
    result = result.replace(pattern, (match, prefix: unknown) => (typeof prefix === 'string' ? `${prefix}${REDACTED}` : REDACTED));
  }
  return result;
}
