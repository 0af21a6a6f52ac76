import type { ToolOutput } from '../../tools/tool-result.js';
import type { InvocationCall } from '../invocation-call.js';
import type { KernelDeps } from '../kernel-deps.js';
import { hookTarget } from './pre-hooks.js';

/**
 * Stage 12: runs the `post_tool_use` hooks on an executed call (the caller skips this when none
 * is registered). The payload carries the (redacted) output. `modified.output` (a string)
 * replaces the output — it is still redacted and bounded afterwards. A `block`, or a hook that
 * fails, withholds the output (fail closed) and marks the call `hook_denied`.
 */
export async function runPostHooks(deps: KernelDeps, call: InvocationCall, output: ToolOutput): Promise<ToolOutput> {
  const target = await hookTarget(deps, call, 'post_tool_use');
  const payload: Record<string, unknown> = {
    tool_id: call.toolId,
    tool_name: call.toolName,
    args: call.args,
    origin: call.origin,
    output: output.output,
    exit_code: output.exitCode ?? 0,
  };
  if (output.errorKind !== undefined) payload['error_kind'] = output.errorKind;
  if (output.metadata !== undefined) payload['metadata'] = output.metadata;
  if (call.parentToolId !== undefined) payload['parent_tool_id'] = call.parentToolId;
  const result = await deps.hooks.run('post_tool_use', payload, { target });
  if (result.action === 'block' || result.action === 'retry') {
    const reason = result.reason ?? 'blocked by a post_tool_use hook';
    return {
      output: `Output withheld by hook${result.hookId === undefined ? '' : ` '${result.hookId}'`}: ${reason}`,
      exitCode: 1,
      errorKind: { type: 'hook_denied', reason, retryable: false },
      ...(output.metadata === undefined ? {} : { metadata: output.metadata }),
    };
  }
  const replaced = result.modified?.['output'];
  if (typeof replaced === 'string') return { ...output, output: replaced };
  return output;
}
