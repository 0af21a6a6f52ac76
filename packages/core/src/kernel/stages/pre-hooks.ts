import type { HookMatchTarget } from '../../hooks/hook-registry.js';
import type { InvocationCall, StageStop } from '../invocation-call.js';
import type { KernelDeps } from '../kernel-deps.js';
import { resolvePermissionTarget } from './permission-target.js';
import { hookArguments } from './hook-arguments.js';
import { validateArguments } from './validate-arguments.js';

/** What `pre_tool_use` / `post_tool_use` matchers see of a call. */
export async function hookTarget(deps: KernelDeps, call: InvocationCall, event: 'pre_tool_use' | 'post_tool_use'): Promise<HookMatchTarget> {
  if (!deps.hooks.needsTarget(event)) return { toolName: call.toolName };
  const { target } = await resolvePermissionTarget(deps, call);
  if (target.kind === 'paths') return { toolName: call.toolName, paths: target.paths };
  if (target.kind === 'command') return { toolName: call.toolName, command: target.command };
  return { toolName: call.toolName };
}

/**
 * What later pre-hooks are matched against once an earlier one replaced the arguments: the call
 * with those arguments (paths resolved again). Arguments that are not valid target nothing but
 * the tool; the call fails validation afterwards unless a later hook repairs them.
 */
async function retarget(deps: KernelDeps, call: InvocationCall, modified: Readonly<Record<string, unknown>>): Promise<HookMatchTarget> {
  if (!Object.hasOwn(modified, 'args') && !Object.hasOwn(modified, 'argsPatch')) return hookTarget(deps, call, 'pre_tool_use');
  const next = hookArguments(deps.security, call.args, modified);
  if ('error' in next) return { toolName: call.toolName };
  const args = next.args;
  if (args === call.args) return hookTarget(deps, call, 'pre_tool_use');
  if (validateArguments(call.tool!, args) !== undefined) return { toolName: call.toolName };
  call.argsChanged(args);
  return hookTarget(deps, call, 'pre_tool_use');
}

/**
 * Stage 4: runs the `pre_tool_use` hooks (the caller skips this when none is registered). Hooks
 * after one that replaced the arguments are matched against the replaced arguments.
 * - `block` -> `hook_denied` (not retryable); `retry` -> `hook_denied` retryable;
 * - `skip` -> the tool does not run; exit 0 with `metadata.skipped`;
 * - `modified: { argsPatch }` changes only the fields it names; `modified: { args }` replaces
 *   the arguments, parts handed back unchanged keeping their REAL (unredacted) values; a changed
 *   field still carrying the redaction marker is refused (see `hookArguments`). The result is
 *   validated AGAIN (a hook cannot launder invalid arguments into a tool);
 * - a hook that throws, times out or answers garbage fails CLOSED (`hook_denied`).
 * Applies to every origin, host-direct included.
 */
export async function runPreHooks(deps: KernelDeps, call: InvocationCall): Promise<StageStop | undefined> {
  const target = await hookTarget(deps, call, 'pre_tool_use');
  const payload: Record<string, unknown> = { tool_id: call.toolId, tool_name: call.toolName, args: call.args, origin: call.origin };
  if (target.paths !== undefined) payload['paths'] = target.paths;
  if (target.command !== undefined) payload['command'] = target.command;
  if (call.parentToolId !== undefined) payload['parent_tool_id'] = call.parentToolId;
  const result = await deps.hooks.run('pre_tool_use', payload, { target, retarget: (modified) => retarget(deps, call, modified) });
  const reason = result.reason ?? 'blocked by a pre_tool_use hook';
  if (result.action === 'block' || result.action === 'retry') {
    const retryable = result.action === 'retry' && result.failed !== true;
    const kind = retryable && result.retryAfterMs !== undefined ? { type: 'hook_denied' as const, reason, retryable, retry_after_ms: result.retryAfterMs } : { type: 'hook_denied' as const, reason, retryable };
    return { output: { output: `Blocked by hook${result.hookId === undefined ? '' : ` '${result.hookId}'`}: ${reason}`, exitCode: 1, errorKind: kind }, outcome: 'denied' };
  }
  if (result.action === 'skip') {
    return {
      output: { output: `Tool '${call.toolName}' was skipped by hook '${result.hookId ?? '?'}': ${reason}`, exitCode: 0, metadata: { skipped: true, skipped_by: result.hookId ?? null, reason } },
      outcome: 'completed',
    };
  }
  const modified = result.modified;
  if (modified !== undefined) {
    const next = hookArguments(deps.security, call.args, modified);
    if ('error' in next) {
      return { output: { output: `Blocked by hook: ${next.error}`, exitCode: 1, errorKind: { type: 'hook_denied', reason: next.error, retryable: false } }, outcome: 'denied' };
    }
    const stop = validateArguments(call.tool!, next.args);
    if (stop !== undefined) {
      const message = `arguments modified by a pre_tool_use hook are invalid: ${stop.output.output}`;
      return { output: { output: message, exitCode: 1, errorKind: { type: 'invalid_argument', message } }, outcome: 'failed' };
    }
    if (next.args !== call.args) call.argsChanged(next.args);
  }
  return undefined;
}
