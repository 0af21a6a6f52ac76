import { CodeError } from '@a3s-lab/code';
import type { SessionOptions } from '@a3s-lab/code';

/** The `--permission-mode` values. */
export const PERMISSION_MODES = ['default', 'accept-edits', 'plan', 'yolo'] as const;

/** One of {@link PERMISSION_MODES}. */
export type PermissionMode = (typeof PERMISSION_MODES)[number];

/** A session `permissionPolicy`. */
export type PermissionPolicy = NonNullable<SessionOptions['permissionPolicy']>;

/** Tools that only look: never asked about in any mode. */
const READ_ONLY_TOOLS = ['read', 'ls', 'glob', 'grep', 'update_plan'] as const;
/** Tools that change files in the workspace. */
const EDIT_TOOLS = ['write', 'edit', 'patch'] as const;

/**
 * The permission policy of each mode:
 *
 * - `default`: read-only tools (read, ls, glob, grep, update_plan) run; everything else (bash,
 *   git, write, edit, patch, program, batch...) asks;
 * - `accept-edits`: like `default`, and file edits (write, edit, patch) run without asking;
 *   bash, git and the rest still ask;
 * - `plan`: read-only tools run; everything else is denied (nothing is changed or executed);
 * - `yolo`: everything runs without asking. Only for throw-away workspaces.
 *
 * Deny rules of the kernel (workspace confinement, protected agent config files) still apply in
 * every mode.
 */
export function permissionPolicyFor(mode: PermissionMode): PermissionPolicy {
  switch (mode) {
    case 'default':
      return { allow: [...READ_ONLY_TOOLS], defaultDecision: 'ask' };
    case 'accept-edits':
      return { allow: [...READ_ONLY_TOOLS, ...EDIT_TOOLS], defaultDecision: 'ask' };
    case 'plan':
      return { allow: [...READ_ONLY_TOOLS], defaultDecision: 'deny' };
    case 'yolo':
      return { defaultDecision: 'allow' };
  }
}

/** Parses a `--permission-mode` value; CONFIG_ERROR naming the accepted values. */
export function parsePermissionMode(value: string): PermissionMode {
  if ((PERMISSION_MODES as readonly string[]).includes(value)) return value as PermissionMode;
  throw new CodeError('CONFIG_ERROR', `--permission-mode must be one of ${PERMISSION_MODES.join(', ')}; got '${value}'`, {
    details: { argument: '--permission-mode', value, accepted: [...PERMISSION_MODES] },
  });
}
