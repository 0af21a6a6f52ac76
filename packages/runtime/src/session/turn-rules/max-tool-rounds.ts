import { CodeError } from '@a3s-lab/code-core';
import type { TurnRule } from './turn-rule.js';

/** At most `maxToolRounds` model turns may request tools; the next one stops the run (SESSION_ERROR). */
export function maxToolRoundsRule(maxToolRounds: number): TurnRule {
  return {
    name: 'max-tool-rounds',
    beforeToolRound: (turn) =>
      turn.turn <= maxToolRounds
        ? null
        : {
            // The assistant message asked for tools we will not run: they are answered so history stays valid.
            reason: `not executed: maxToolRounds (${maxToolRounds}) reached`,
            error: new CodeError('SESSION_ERROR', `the run stopped after maxToolRounds (${maxToolRounds}) model turns that requested tools`, { details: { limit: 'maxToolRounds', maxToolRounds } }),
          },
  };
}
