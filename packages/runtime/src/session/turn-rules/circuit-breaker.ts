import { CodeError } from '@a3s-lab/code-core';
import type { TurnRule } from './turn-rule.js';

/** `threshold` consecutive rounds whose calls all failed stop the run (TOOL_ERROR, `circuitBreakerThreshold`). */
export function circuitBreakerRule(threshold: number): TurnRule {
  let failedRounds = 0;
  return {
    name: 'circuit-breaker',
    afterToolRound: (results) => {
      failedRounds = results.every((r) => r.exitCode !== 0) ? failedRounds + 1 : 0;
      if (failedRounds < threshold) return null;
      return new CodeError('TOOL_ERROR', `circuit breaker open: ${failedRounds} consecutive tool rounds failed`, { details: { limit: 'circuitBreakerThreshold', circuitBreakerThreshold: threshold } });
    },
  };
}
