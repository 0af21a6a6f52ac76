import { CodeError } from './code-error.js';

/**
 * The default branch of a `switch` over an internal union: it compiles only when every member
 * has its case, so a new variant (an `LlmStreamEvent`, a content part...) is a compile error
 * where it is not handled instead of being dropped silently. Reaching it at run time (a value
 * from outside the types) is an INTERNAL_ERROR naming `what`.
 */
export function assertNever(value: never, what: string): never {
  const seen: unknown = value;
  const type = typeof seen === 'object' && seen !== null && 'type' in seen ? String(seen.type) : String(seen);
  throw new CodeError('INTERNAL_ERROR', `unhandled ${what}: ${type}`, { details: { what, value: type } });
}
