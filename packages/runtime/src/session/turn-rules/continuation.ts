import type { TurnRule } from './turn-rule.js';

const CONTINUE_PROMPT = 'Your reply was cut at the output limit. Continue exactly where it stopped, without repeating anything.';

/**
 * A reply cut at the output-token limit (`max_tokens`) is continued, at most `maxTurns` times in
 * a row (`maxContinuationTurns`; 0 with `continuationEnabled: false`); a tool round resets it.
 */
export function continuationRule(maxTurns: number): TurnRule {
  let continuations = 0;
  return {
    name: 'continuation',
    afterTextTurn: (turn) => {
      if (turn.stopReason !== 'max_tokens' || continuations >= maxTurns) return null;
      continuations += 1;
      return CONTINUE_PROMPT;
    },
    beforeToolRound: () => {
      continuations = 0;
      return null;
    },
  };
}
