import { CodeError } from '../../errors/code-error.js';
import { HostFailure } from '../../errors/host-failure.js';
import { declaredErrorKind } from '../../errors/tool-error-kind.js';
import type { ToolErrorKind } from '../../errors/tool-error-kind.js';
import type { ToolOutput } from '../../tools/tool-result.js';
import type { InvocationCall } from '../invocation-call.js';

/**
 * The result of a call whose execution scope was aborted. `abandoned` means the tool did not
 * settle within the grace period; `returned` is what the tool produced if it did settle (its
 * text and metadata are kept, the outcome is still the abort).
 */
export function abortedOutput(call: InvocationCall, timeoutMs: number, graceMs: number, abandoned: boolean, returned?: ToolOutput): ToolOutput {
  const prefix = returned !== undefined && returned.output.length > 0 ? `${returned.output}\n` : '';
  const tail = abandoned ? ` (it did not stop within the ${graceMs} ms grace period)` : '';
  const metadata = returned?.metadata === undefined ? {} : { metadata: returned.metadata };
  if (call.abortKind === 'timeout') {
    return { ...metadata, output: `${prefix}Tool '${call.toolName}' timed out after ${timeoutMs} ms${tail}`, exitCode: 1, errorKind: { type: 'timeout', op: call.toolName, duration_ms: timeoutMs } };
  }
  return { ...metadata, output: `${prefix}Tool '${call.toolName}' was cancelled: ${call.abortReason || 'cancelled'}${tail}`, exitCode: 1, errorKind: { type: 'cancelled', op: call.toolName } };
}

/**
 * Turns anything thrown by `execute` into a failed result:
 * HostFailure NotFound -> `not_found`; Conflict -> `version_conflict`; CodeError SECURITY_ERROR ->
 * `permission_denied`; a CodeError whose `details.errorKind` is a ToolErrorKind -> that kind;
 * an abort -> `cancelled` / `timeout`; anything else -> exit 1 with the message.
 */
export function mapToolError(error: unknown, call: InvocationCall, timeoutMs: number, graceMs: number): ToolOutput {
  if (call.aborted) return abortedOutput(call, timeoutMs, graceMs, false);
  const message = error instanceof Error ? error.message || error.name : String(error);
  if (HostFailure.isHostFailure(error)) {
    const path = error.path ?? (typeof error.details['path'] === 'string' ? error.details['path'] : '');
    if (error.reason === 'NotFound') return { output: `Not found: ${path || message}`, exitCode: 1, errorKind: { type: 'not_found', path } };
    if (error.reason === 'Conflict') {
      const expected = error.details['expected'];
      const actual = error.details['actual'];
      const kind: ToolErrorKind = {
        type: 'version_conflict',
        path,
        expected: typeof expected === 'string' ? expected : null,
        ...(typeof actual === 'string' || actual === null ? { actual } : {}),
      };
      return { output: `Version conflict on '${path}': ${message}`, exitCode: 1, errorKind: kind };
    }
  }
  if (CodeError.isInstance(error)) {
    const declared = declaredErrorKind(error);
    if (declared !== undefined) return { output: `Error: ${message}`, exitCode: 1, errorKind: declared };
    if (error.code === 'SECURITY_ERROR') return { output: `Permission denied: ${message}`, exitCode: 1, errorKind: { type: 'permission_denied', reason: message } };
  }
  if (error instanceof Error && error.name === 'AbortError') return { output: `Tool '${call.toolName}' was cancelled: ${message}`, exitCode: 1, errorKind: { type: 'cancelled', op: call.toolName } };
  return { output: `Error: ${message}`, exitCode: 1 };
}
