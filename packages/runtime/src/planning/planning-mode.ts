/**
 * Whether a prompt "looks multi-step" (planningMode `auto`): it lists two or more steps as
 * numbered or bulleted lines, or chains three or more clauses with sequencing words ("then",
 * "after that", "afterwards", "finally", "next"), or it is long (over 1200 characters) and holds
 * at least two sentences with such words. Deterministic and cheap: no model call decides it.
 */
export function looksMultiStep(prompt: string): boolean {
  const listed = prompt.split('\n').filter((line) => /^\s*(?:\d+[.)]|[-*•])\s+\S/.test(line)).length;
  if (listed >= 2) return true;
  const sequencing = prompt.match(/\b(?:then|after that|afterwards|finally|next)\b/gi)?.length ?? 0;
  if (sequencing >= 2) return true;
  return prompt.length > 1200 && sequencing >= 1;
}
