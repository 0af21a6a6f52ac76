import type { ToolRegistry } from '../../tools/tool-registry.js';
import type { InvocationCall, StageStop } from '../invocation-call.js';

function reject(message: string): StageStop {
  return { output: { output: message, exitCode: 1, errorKind: { type: 'unsupported', message } }, outcome: 'failed' };
}

/**
 * Stage 10 (part): recursive-invocation protection. A `program`-orchestration tool inside a
 * `program` ancestry, or a `batch` inside a `batch`, is rejected; so is any call nested deeper
 * than `maxDepth` levels.
 */
export function checkRecursion(registry: ToolRegistry, call: InvocationCall, maxDepth: number): StageStop | undefined {
  const ancestry = call.ancestry;
  if (ancestry.length === 0) return undefined;
  if (ancestry.length > maxDepth) {
    return reject(`Tool '${call.toolName}' rejected: nesting depth ${ancestry.length} exceeds the limit of ${maxDepth} (${ancestry.join(' > ')} > ${call.toolName})`);
  }
  const kind = call.tool?.orchestration;
  if (kind === undefined) return undefined;
  for (const name of ancestry) {
    const ancestor = registry.get(name);
    if (name === call.toolName || ancestor?.orchestration === kind) {
      return reject(`Tool '${call.toolName}' rejected: a '${kind}' orchestration cannot run inside another (call chain: ${[...ancestry, call.toolName].join(' > ')}; '${name}' is already running)`);
    }
  }
  return undefined;
}
