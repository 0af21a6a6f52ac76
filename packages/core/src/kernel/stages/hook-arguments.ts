import { REDACTION_MARKER } from '../../security/security-provider.js';
import type { SecurityProvider } from '../../security/security-provider.js';

/** The arguments a pre-hook's `modified` asks for, or why they cannot be used. */
export type HookArguments = { readonly args: unknown } | { readonly error: string };

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  try {
    return JSON.stringify(a) === JSON.stringify(b);
  } catch {
    return false;
  }
}

/**
 * The real value wherever the hook's value is just the redacted view of it (the hook saw
 * redacted arguments and handed back what it did not change); the hook's value where it changed
 * something. Walks objects by key and arrays by index.
 */
function restore(hookValue: unknown, realValue: unknown, security: SecurityProvider): unknown {
  if (sameJson(hookValue, security.redactValue(realValue))) return realValue;
  if (isPlainObject(hookValue) && isPlainObject(realValue)) {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(hookValue)) out[key] = Object.hasOwn(realValue, key) ? restore(value, realValue[key], security) : value;
    return out;
  }
  if (Array.isArray(hookValue) && Array.isArray(realValue) && hookValue.length === realValue.length) {
    return hookValue.map((item, index) => restore(item, realValue[index], security));
  }
  return hookValue;
}

const carriesMarker = (value: unknown): boolean => {
  try {
    return (JSON.stringify(value) ?? '').includes(REDACTION_MARKER);
  } catch {
    return false;
  }
};

/**
 * Turns a pre-hook's `modified` into the call's next arguments. Hooks only ever see redacted
 * arguments, so:
 * - `modified.argsPatch` (an object) is merged field by field into the REAL arguments: a hook
 *   that normalises one field changes only that field;
 * - `modified.args` replaces the arguments, but every part the hook handed back unchanged (equal
 *   to the redacted view of the real value) keeps its real value;
 * - what is left carrying the redaction marker (a changed field built from redacted text) is
 *   refused: writing `[REDACTED]` into a file is never what the hook meant.
 */
export function hookArguments(security: SecurityProvider, realArgs: unknown, modified: Readonly<Record<string, unknown>>): HookArguments {
  let next: unknown;
  if (Object.hasOwn(modified, 'argsPatch')) {
    const patch = modified['argsPatch'];
    if (!isPlainObject(patch)) return { error: "pre_tool_use hook returned an 'argsPatch' that is not an object" };
    const base = Object.hasOwn(modified, 'args') ? restore(modified['args'], realArgs, security) : realArgs;
    next = { ...(isPlainObject(base) ? base : {}), ...(restore(patch, isPlainObject(base) ? base : {}, security) as Record<string, unknown>) };
  } else if (Object.hasOwn(modified, 'args')) {
    next = restore(modified['args'], realArgs, security);
  } else {
    return { error: "pre_tool_use hook returned 'modified' without 'args' or 'argsPatch' (expected { argsPatch: { field: value } } or { args: <new arguments> })" };
  }
  if (carriesMarker(next) && !carriesMarker(realArgs)) {
    return { error: `pre_tool_use hook changed a field built from redacted text (it carries ${REDACTION_MARKER}); return only the fields you change in 'argsPatch'` };
  }
  return { args: next };
}
