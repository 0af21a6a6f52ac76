import { posix } from 'node:path';

import { isProtectedPath } from '../protected-paths.js';
import type { WorkspaceListing } from './workspace-listing.js';

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
 * The protected paths (see `PROTECTED_WRITE_PATTERNS`) that exist in the workspace, plus the
 * repository's configured hooks directories (`hooksPaths`, workspace-relative), as mounts: a
 * sandboxed process can neither write them nor move them away. Parents come before children.
 * Paths that do not exist yet are not covered (a mount needs an existing target). `listing`: the
 * workspace's listings at the call's start (shared with the other checks of the call).
 */
export async function protectedMounts(listing: WorkspaceListing, hooksPaths: readonly string[]): Promise<ProtectedMount[]> {
  const rootReal = listing.rootReal;
  const mounts: ProtectedMount[] = [];
  const git = await listing.entry('.git');
  if (git?.isDirectory() === true) mounts.push({ path: posix.join(rootReal, '.git'), kind: 'pinned' });
  else if (git !== null && !git.isSymbolicLink()) mounts.push({ path: posix.join(rootReal, '.git'), kind: 'read-only' });
  const candidates = [...FIXED_PROTECTED_PATHS, ...(await a3sConfigFiles(listing)), ...hooksPaths.filter((path) => path !== '.' && path !== '')];
  for (const dir of NESTED_GIT_DIRS) candidates.push(...(await nestedGitFiles(listing, dir, 0)));
  const seen = new Set<string>();
  const reals = await Promise.all(candidates.map((relative) => listing.realInside(relative)));
  for (const mount of reals) {
    // A path that does not exist, or a symlink leading out (what it points at is read-only in
    // the sandbox already), is not mounted.
    if (mount === null || seen.has(mount)) continue;
    seen.add(mount);
    mounts.push({ path: mount, kind: 'read-only' });
  }
  return mounts.sort((a, b) => depth(a.path) - depth(b.path));
}

/** The protected `.a3s/*` entries (configuration files) in the listing. */
export async function a3sConfigFiles(listing: WorkspaceListing): Promise<string[]> {
  const names = [...(await listing.entries('.a3s')).keys()];
  return names.map((name) => `.a3s/${name}`).filter((path) => isProtectedPath(path));
}

async function nestedGitFiles(listing: WorkspaceListing, relative: string, level: number): Promise<string[]> {
  if (level > MAX_NESTED_DEPTH) return [];
  const found: string[] = [];
  for (const entry of (await listing.entries(relative)).values()) {
    const child = `${relative}/${entry.name}`;
    if (NESTED_NAMES.has(entry.name)) found.push(child);
    else if (entry.isDirectory()) found.push(...(await nestedGitFiles(listing, child, level + 1)));
  }
  return found;
}

function depth(path: string): number {
  return path.split('/').length;
}

/** The `candidates` (workspace-relative) that exist in the listing. */
export async function existingCandidates(listing: WorkspaceListing, candidates: readonly string[]): Promise<Set<string>> {
  const found = new Set<string>();
  await Promise.all(
    candidates.map(async (path) => {
      if ((await listing.entry(path)) !== null) found.add(path);
    }),
  );
  return found;
}
