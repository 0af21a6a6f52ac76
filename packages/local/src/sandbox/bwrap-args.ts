import { posix } from 'node:path';

import type { ProtectedMount } from './protected-mounts.js';

/** A path hidden inside the sandbox, by kind (a directory becomes an empty read-only tmpfs, a file /dev/null). */
export interface HiddenPath {
  readonly path: string;
  readonly directory: boolean;
}

/** Everything one sandboxed process needs besides its argv. */
export interface BwrapPlan {
  /** The workspace's real path: the one writable tree (none for a process without a workspace). */
  readonly rootReal?: string;
  /** Working directory (absolute, inside the workspace). */
  readonly cwd: string;
  /** Existing extra writable paths (real paths). */
  readonly allowWrite: readonly string[];
  /** Protected paths of the workspace, parents first. */
  readonly protectedMounts: readonly ProtectedMount[];
  /** Existing deny-read paths (real paths). */
  readonly hidden: readonly HiddenPath[];
  /** False for network `none` and for the allow-list (which goes through the proxy socket). */
  readonly shareNetwork: boolean;
  /** Mounts added after the others (the allow-list proxy's socket directory). */
  readonly extraBinds?: readonly (readonly [string, string])[];
  /**
   * Existing trees under `/tmp` bound back read-only over the private `/tmp` (the code of a
   * program that lives there, e.g. an MCP server started from a checkout in /tmp).
   */
  readonly readOnlyBinds?: readonly string[];
}

/**
 * The bubblewrap argv (without the binary) that runs `file args` inside the sandbox: the host's
 * filesystem read-only, fresh /dev, /proc (of a new pid namespace) and private /tmp, the
 * workspace and `allowWrite` writable, protected workspace paths read-only, secrets hidden; new
 * user, pid, ipc, uts (and network unless shared) namespaces, no capabilities, no further user
 * namespaces, no new privileges (bubblewrap always sets it), a new session (no terminal), and the
 * whole tree killed when bubblewrap dies. The environment is inherited as is (already scrubbed).
 */
export function bwrapArgs(plan: BwrapPlan, file: string, args: readonly string[]): string[] {
  const argv = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp'];
  for (const path of plan.readOnlyBinds ?? []) argv.push('--ro-bind', path, path);
  const writable = [...(plan.rootReal === undefined ? [] : [plan.rootReal]), ...plan.allowWrite];
  const hide = (hidden: HiddenPath): void => {
    // Under the private /tmp and outside every writable tree: not visible in the sandbox at all.
    if (isUnder(hidden.path, '/tmp') && ![...writable, ...(plan.readOnlyBinds ?? [])].some((root) => isUnder(hidden.path, root))) return;
    if (hidden.directory) argv.push('--perms', '0700', '--tmpfs', hidden.path, '--remount-ro', hidden.path);
    else argv.push('--ro-bind', '/dev/null', hidden.path);
  };
  // A hidden directory holding a writable tree goes first (the tree is bound back over it); the
  // others after, so a secret inside a writable tree stays hidden.
  const containsWritable = (hidden: HiddenPath): boolean => writable.some((root) => isUnder(root, hidden.path));
  for (const hidden of plan.hidden) if (containsWritable(hidden)) hide(hidden);
  for (const path of writable) argv.push('--bind', path, path);
  for (const mount of plan.protectedMounts) argv.push(mount.kind === 'pinned' ? '--bind' : '--ro-bind', mount.path, mount.path);
  for (const hidden of plan.hidden) if (!containsWritable(hidden)) hide(hidden);
  for (const [source, target] of plan.extraBinds ?? []) argv.push('--bind', source, target);
  argv.push('--unshare-user', '--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try');
  if (!plan.shareNetwork) argv.push('--unshare-net');
  argv.push('--die-with-parent', '--new-session', '--disable-userns', '--cap-drop', 'ALL', '--chdir', plan.cwd, '--', file, ...args);
  return argv;
}

/**
 * True when `path` is `root` or below it (by path components). Two canonical absolute paths (no
 * `.`/`..`/empty component, no trailing slash: what `realpath` returns) compare as strings; any
 * other form goes through `path.relative`, which resolves it first (against the working directory
 * when relative). The string form is the hot one: every in-process tool call checks its path
 * against the deny-read list.
 */
export function isUnder(path: string, root: string): boolean {
  if (isCanonicalAbsolute(path) && isCanonicalAbsolute(root)) {
    return root === '/' || path === root || (path.startsWith(root) && path.charCodeAt(root.length) === SLASH);
  }
  const relative = posix.relative(root, path);
  return relative === '' || (!relative.startsWith('..') && !posix.isAbsolute(relative));
}

const SLASH = 47;
// An absolute path with no empty, `.` or `..` component and no trailing slash ('/' itself is one).
const NON_CANONICAL = /\/\/|\/\.\.?(?:\/|$)|.\/$/;

function isCanonicalAbsolute(path: string): boolean {
  return path.charCodeAt(0) === SLASH && !NON_CANONICAL.test(path);
}
