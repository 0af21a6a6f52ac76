import { stableJson } from '../stable-json.js';
import type { TurnRule } from './turn-rule.js';

/**
 * An identical call (same tool, same arguments) repeated more than `threshold` times in a row,
 * across rounds, is refused with a hint to change approach (`duplicateToolCallThreshold`).
 */
export function duplicateCallsRule(threshold: number): TurnRule {
  let lastSignature = '';
  let repeatCount = 0;
  return {
    name: 'duplicate-calls',
    refuseCall: (call) => {
      const signature = call.invalidInput === undefined ? `${call.name}\u0000${stableJson(call.input)}` : '';
      if (signature !== '' && signature === lastSignature) repeatCount += 1;
      else repeatCount = signature === '' ? 0 : 1;
      lastSignature = signature;
      if (signature === '' || repeatCount <= threshold) return undefined;
      return `identical ${call.name} call repeated ${repeatCount} times in a row (duplicateToolCallThreshold ${threshold}); change the arguments or approach`;
    },
  };
}
