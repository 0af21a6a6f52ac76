import type { InvocationOrigin } from '../invocation-origin.js';

/**
 * Stage 5: whether permission, tool-owned escalation and confirmation (stages 6-8) apply.
 * `host-direct` calls skip them by policy (application code chose the call); `agent` and
 * `nested` calls are judged, each nested call on its own, exactly like a model call.
 */
export function requiresAuthorization(origin: InvocationOrigin): boolean {
  return origin !== 'host-direct';
}
