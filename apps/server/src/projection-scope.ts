import { CodeError } from '@a3s-lab/code';

/**
 * True for a tool event of a call nested in another (a `program` / `batch` step, origin other
 * than `agent`): the protocol projections draw it inside its parent's output, not as a call of
 * its own.
 */
export function isNestedToolEvent(payload: { readonly parent_tool_id?: string; readonly origin?: string }): boolean {
  return payload.parent_tool_id !== undefined || (payload.origin !== undefined && payload.origin !== 'agent');
}

/**
 * The default branch of a projection's `switch` over the known v1 event types: it compiles only
 * when every type has its case, so a type added to the catalog is a compile error here, not an
 * event dropped silently. Reached at run time only by a value outside the types.
 */
export function unhandledEvent(value: never): never {
  const seen: unknown = value;
  const type = typeof seen === 'object' && seen !== null && 'type' in seen ? String(seen.type) : String(seen);
  throw new CodeError('INTERNAL_ERROR', `unhandled v1 event in a stream projection: ${type}`);
}
