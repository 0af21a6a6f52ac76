import { lstat, readdir, realpath } from 'node:fs/promises';
import { posix } from 'node:path';

import { isProtectedPath } from '../protected-paths.js';

/** A path of the workspace mounted over itself inside the sandbox. */
export interface ProtectedMount {
  /** Absolute path on the host (inside the workspace). */
  readonly path: string;
  /**
   * `read-only`: a protected file or directory (the sandbox cannot write, delete or rename it);
   * `pinned`: `.git` when it is a directory, bound writable onto itself only so that it is a mount
   * point nobody inside can rename or replace (its protected children are read-only).
   */
  readonly kind: 'read-only' | 'pinned';
}

// Fixed names of PROTECTED_WRITE_PATTERNS (protected-paths.ts); the patterns with a wildcard are
// expanded below by listing the directory they name.
export const FIXED_PROTECTED_PATHS: readonly string[] = [
  'agent.acl', '.mcp.json', '.a3s/hooks', '.a3s/tools', '.a3s/agents',
  '.git/hooks', '.git/config', '.git/commondir', '.git/config.worktree',
  '.husky', '.githooks', '.lefthook', 'lefthook.yml', 'lefthook.yaml', 'lefthook.json', 'lefthook.toml', '.lefthook.yml', '.lefthook.yaml',
  'lefthook-local.yml', 'lefthook-local.yaml', '.lefthook-local.yml', '.lefthook-local.yaml', '.pre-commit-config.yaml', '.pre-commit-config.yml',
  '.overcommit.yml', '.simple-git-hooks.json', '.simple-git-hooks.js', '.simple-git-hooks.cjs', 'simple-git-hooks.json', 'simple-git-hooks.js', 'simple-git-hooks.cjs',
];
// Below these, every `config`, `config.worktree`, `commondir` and `hooks` (submodules, worktrees).
const NESTED_GIT_DIRS = ['.git/modules', '.git/worktrees'];
const NESTED_NAMES = new Set(['config', 'config.worktree', 'commondir', 'hooks']);
const MAX_NESTED_DEPTH = 4;

/**
 * The protected paths (see `PROTECTED_WRITE_PATTERNS`) that exist in the workspace `rootReal`,
 * plus the repository's configured hooks directories (`hooksPaths`, workspace-relative), as
 * mounts: a sandboxed process can neither write them nor move them away. Parents come before
 * children. Paths that do not exist yet are not covered (a mount needs an existing target).
 */
export async function protectedMounts(rootReal: string, hooksPaths: readonly string[]): Promise<ProtectedMount[]> {
  const mounts: ProtectedMount[] = [];
  const gitStats = await lstat(posix.join(rootReal, '.git')).catch(() => null);
  if (gitStats?.isDirectory() === true) mounts.push({ path: posix.join(rootReal, '.git'), kind: 'pinned' });
  else if (gitStats !== null && !gitStats.isSymbolicLink()) mounts.push({ path: posix.join(rootReal, '.git'), kind: 'read-only' });
  const candidates = [...FIXED_PROTECTED_PATHS, ...(await a3sConfigFiles(rootReal)), ...hooksPaths.filter((path) => path !== '.' && path !== '')];
  for (const dir of NESTED_GIT_DIRS) candidates.push(...(await nestedGitFiles(rootReal, dir, 0)));
  const present = await existingCandidates(rootReal, candidates);
  const seen = new Set<string>();
  for (const relative of candidates) {
    if (!present.has(relative)) continue;
    const mount = await existingInside(rootReal, relative);
    if (mount === null || seen.has(mount)) continue;
    seen.add(mount);
    mounts.push({ path: mount, kind: 'read-only' });
  }
  return mounts.sort((a, b) => depth(a.path) - depth(b.path));
}

export async function a3sConfigFiles(rootReal: string): Promise<string[]> {
  const names = await readdir(posix.join(rootReal, '.a3s')).catch(() => [] as string[]);
  return names.map((name) => `.a3s/${name}`).filter((path) => isProtectedPath(path));
}

async function nestedGitFiles(rootReal: string, relative: string, level: number): Promise<string[]> {
  if (level > MAX_NESTED_DEPTH) return [];
  const entries = await readdir(posix.join(rootReal, relative), { withFileTypes: true }).catch(() => []);
  const found: string[] = [];
  for (const entry of entries) {
    const child = `${relative}/${entry.name}`;
    if (NESTED_NAMES.has(entry.name)) found.push(child);
    else if (entry.isDirectory()) found.push(...(await nestedGitFiles(rootReal, child, level + 1)));
  }
  return found;
}

// The real path of `relative` when it exists and stays inside the workspace (a symlink leading
// out is not mounted: what it points at is read-only in the sandbox already).
async function existingInside(rootReal: string, relative: string): Promise<string | null> {
  const real = await realpath(posix.join(rootReal, relative)).catch(() => null);
  if (real === null) return null;
  const inside = posix.relative(rootReal, real);
  return inside === '' || inside.startsWith('..') || posix.isAbsolute(inside) ? null : real;
}

function depth(path: string): number {
  return path.split('/').length;
}

/**
 * The `candidates` (workspace-relative) that exist in `rootReal`, found with one `readdir` per
 * parent directory instead of one `lstat` per path (a call checks ~30 names before and after).
 */
export async function existingCandidates(rootReal: string, candidates: readonly string[]): Promise<Set<string>> {
  const byParent = new Map<string, string[]>();
  for (const path of candidates) {
    const parent = posix.dirname(path);
    byParent.set(parent, [...(byParent.get(parent) ?? []), path]);
  }
  const found = new Set<string>();
  await Promise.all(
    [...byParent].map(async ([parent, paths]) => {
      const names = new Set(await readdir(posix.join(rootReal, parent)).catch(() => [] as string[]));
      for (const path of paths) if (names.has(posix.basename(path))) found.add(path);
    }),
  );
  return found;
}
