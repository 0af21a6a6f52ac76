import type { ToolOutput } from '../../tools/tool-result.js';
import type { InvocationCall } from '../invocation-call.js';
import type { KernelDeps } from '../kernel-deps.js';
import type { KernelToolContext } from '../kernel-tool-context.js';
import { abortedOutput, mapToolError } from './map-tool-error.js';

/** setTimeout's largest delay; a longer deadline would fire at once. */
export const MAX_TIMER_MS = 2_147_483_647;

function checkOutput(value: unknown, call: InvocationCall): ToolOutput {
  if (typeof value === 'object' && value !== null && typeof (value as ToolOutput).output === 'string') return value as ToolOutput;
  return { output: `Tool '${call.toolName}' returned an invalid result (expected an object with a string 'output')`, exitCode: 1 };
}

/**
 * Stages 10 (deadline + cancellation) and 11 (execute). Runs the tool under the call's deadline.
 * When the call is aborted (deadline, caller's signal, session close) the tool's signal aborts
 * and the kernel waits at most `abortGraceMs` for it to settle; a tool that ignores its signal
 * still yields a `timeout` / `cancelled` result once the grace ends. Never rejects.
 */
export function executeWithDeadline(deps: KernelDeps, call: InvocationCall, context: KernelToolContext, timeoutMs: number): Promise<ToolOutput> {
  return new Promise<ToolOutput>((resolve) => {
    let done = false;
    let deadline: ReturnType<typeof setTimeout> | undefined;
    let grace: ReturnType<typeof setTimeout> | undefined;
    const graceMs = deps.abortGraceMs;
    const finish = (output: ToolOutput): void => {
      if (done) return;
      done = true;
      if (deadline !== undefined) clearTimeout(deadline);
      if (grace !== undefined) clearTimeout(grace);
      call.onAbort = null;
      resolve(output);
    };
    call.onAbort = () => {
      grace = setTimeout(() => finish(abortedOutput(call, timeoutMs, graceMs, true)), graceMs);
    };
    if (timeoutMs < MAX_TIMER_MS) {
      deadline = setTimeout(() => call.abort('timeout', `tool call exceeded its ${timeoutMs} ms deadline`), timeoutMs);
    }
    let pending: Promise<ToolOutput>;
    try {
      pending = call.tool!.execute(call.args, context);
    } catch (error) {
      finish(mapToolError(error, call, timeoutMs, graceMs));
      return;
    }
    if (typeof (pending as Partial<Promise<ToolOutput>> | null)?.then !== 'function') {
      finish(checkOutput(pending, call));
      return;
    }
    pending.then(
      (value) => finish(call.aborted ? abortedOutput(call, timeoutMs, graceMs, false, checkOutput(value, call)) : checkOutput(value, call)),
      (error: unknown) => finish(mapToolError(error, call, timeoutMs, graceMs)),
    );
  });
}
