import { evaluatePermission } from './permission-policy.js';
import type { PermissionPolicy } from './permission-policy.js';

/**
 * A predicate telling whether the policy's deny rules WITH A PATH SPECIFIER refuse a
 * workspace-relative path for any of `toolNames` (matched like a call's resolved path,
 * case-insensitively). Search tools use it for every file a search touches, not only the root
 * they were given: `grep` over `.` must not return the content of a file `read(**\/.env)` denies.
 * `null` when no such rule exists (nothing to filter).
 */
export function createPathDenyFilter(policy: PermissionPolicy | null, toolNames: readonly string[]): ((path: string) => boolean) | null {
  const deny = (policy?.deny ?? []).filter((rule) => rule.includes('('));
  if (deny.length === 0) return null;
  const narrowed: PermissionPolicy = { deny, defaultDecision: 'allow' };
  const names = [...new Set(toolNames)];
  const cache = new Map<string, boolean>();
  return (path) => {
    const known = cache.get(path);
    if (known !== undefined) return known;
    const denied = names.some((toolName) => evaluatePermission(narrowed, { toolName, target: { kind: 'paths', paths: [path] } }).decision === 'deny');
    if (cache.size < 4096) cache.set(path, denied);
    return denied;
  };
}
