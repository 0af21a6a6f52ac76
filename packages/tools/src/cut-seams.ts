/** What replaces the fragments on both sides of a cut (see {@link maskCutSeams}). */
export const CUT_FRAGMENT_MARKER = '[CUT]';

// The omission marker of a head/tail capture: `\n[... N bytes omitted ...]\n`.
const SEAM = /([^\s]{1,512})?(\n\[\.\.\. \d+ bytes omitted \.\.\.\]\n)([^\s]{1,512})?/g;

/**
 * Masks the word fragments touching each head/tail cut of captured output. The process's output
 * was cut before anything could redact it, so a secret straddling the cut would leave two halves
 * that no pattern or known value matches any more: the non-space runs on both sides of a cut
 * (at most 512 characters each) are replaced with {@link CUT_FRAGMENT_MARKER}. What is lost is at
 * most one word per side of each cut.
 */
export function maskCutSeams(text: string): string {
  if (!text.includes(' bytes omitted ...]')) return text;
  return text.replace(SEAM, (_match, before: string | undefined, seam: string, after: string | undefined) => `${before === undefined ? '' : CUT_FRAGMENT_MARKER}${seam}${after === undefined ? '' : CUT_FRAGMENT_MARKER}`);
}
