import { circuitBreakerRule } from './circuit-breaker.js';
import { continuationRule } from './continuation.js';
import { duplicateCallsRule } from './duplicate-calls.js';
import { malformedArgumentsRule } from './malformed-arguments.js';
import { maxToolRoundsRule } from './max-tool-rounds.js';
import type { TurnRule, TurnRuleLimits } from './turn-rule.js';

/** The rules of one run, in the order the loop asks them (fresh state per run). */
export function turnRules(limits: TurnRuleLimits): TurnRule[] {
  return [
    continuationRule(limits.maxContinuationTurns),
    malformedArgumentsRule(limits.maxParseRetries),
    maxToolRoundsRule(limits.maxToolRounds),
    duplicateCallsRule(limits.duplicateToolCallThreshold),
    circuitBreakerRule(limits.circuitBreakerThreshold),
  ];
}
