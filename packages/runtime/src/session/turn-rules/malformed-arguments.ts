import { CodeError } from '@a3s-lab/code-core';
import type { TurnRule } from './turn-rule.js';

/**
 * Turns whose tool calls carry malformed JSON arguments are answered with an error for the model
 * to retry, `maxParseRetries` turns in a row; one more stops the run (LLM_ERROR).
 */
export function malformedArgumentsRule(maxParseRetries: number): TurnRule {
  let malformedRounds = 0;
  return {
    name: 'malformed-arguments',
    beforeToolRound: (turn) => {
      if (!turn.calls.some((c) => c.invalidInput !== undefined)) {
        malformedRounds = 0;
        return null;
      }
      malformedRounds += 1;
      if (malformedRounds <= maxParseRetries) return null;
      return {
        reason: 'not executed: too many malformed tool calls',
        error: new CodeError('LLM_ERROR', `the model sent malformed tool-call arguments ${malformedRounds} turns in a row (maxParseRetries ${maxParseRetries})`, { details: { limit: 'maxParseRetries', maxParseRetries } }),
      };
    },
  };
}
