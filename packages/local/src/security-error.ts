import { CodeError } from '@a3s-lab/code-core';

/** Why a path was refused by the confinement function or the protected-path rules. */
export type PathRefusalReason =
  | 'outside_workspace'
  | 'nul_byte'
  | 'path_too_long'
  | 'component_too_long'
  | 'symlink_loop'
  | 'protected_path'
  | 'denied_path'
  | 'not_a_path';

/** Builds the `SECURITY_ERROR` CodeError thrown for a refused path (`details.path`, `details.reason`). */
export function pathSecurityError(path: string, reason: PathRefusalReason, message: string, extra: Record<string, unknown> = {}): CodeError {
  return new CodeError('SECURITY_ERROR', message, { details: { path: printable(path), reason, ...extra } });
}

// A NUL byte in details would break JSON consumers and logs; show it escaped instead.
function printable(path: string): string {
  return path.includes('\0') ? path.replaceAll('\0', '\\0') : path;
}
