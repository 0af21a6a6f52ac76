import { lstat, realpath, rm } from 'node:fs/promises';
import { posix } from 'node:path';

import { isUnder } from './bwrap-args.js';
import { neutraliseCreatedGitDir } from './created-git-dir.js';
import { a3sConfigFiles, existingCandidates, FIXED_PROTECTED_PATHS } from './protected-mounts.js';

/**
 * A bind mount needs an existing target, so a protected path that does not exist when a sandboxed
 * call starts (`.mcp.json`, `agent.acl`, `.a3s/hooks`, `.git/hooks` of a repository without
 * one...) is not read-only inside. This closes that gap: the absent ones are noted before the
 * call, and whatever of them exists after it (every process of the call is gone by then: its pid
 * namespace ended) was created by the command and is removed again. Returns the function to run
 * after the call, which resolves to the workspace-relative paths it removed.
 *
 * A `.git` that did not exist when the call started (the command ran `git init`, `git clone .`,
 * or wrote a `gitdir:` file) is checked after it by `neutraliseCreatedGitDir`: new hooks and a
 * config setting more than `git init` writes are removed, a `.git` file or link goes entirely.
 */
export async function guardAbsentProtectedPaths(rootReal: string): Promise<() => Promise<string[]>> {
  const gitExists = (await lstat(posix.join(rootReal, '.git')).catch(() => null)) !== null;
  const candidates = FIXED_PROTECTED_PATHS.filter((path) => gitExists || !path.startsWith('.git/'));
  const present = await existingCandidates(rootReal, candidates);
  const absent = new Set(candidates.filter((path) => !present.has(path)));
  const configBefore = new Set(await a3sConfigFiles(rootReal));
  const a3sBefore = await exists(rootReal, '.a3s');
  return async () => {
    // A `.a3s` the command made a link (to a directory of the workspace holding `hooks`...): the
    // link goes, and nothing it points at is touched.
    const linked = !a3sBefore && (await lstat(posix.join(rootReal, '.a3s')).catch(() => null))?.isSymbolicLink() === true;
    const created: string[] = [];
    if (linked) {
      await rm(posix.join(rootReal, '.a3s'), { force: true }).catch(() => undefined);
      created.push('.a3s');
    }
    const now = await existingCandidates(rootReal, [...absent]);
    for (const path of absent) if (!(linked && path.startsWith('.a3s/')) && now.has(path)) created.push(path);
    if (!linked) for (const path of await a3sConfigFiles(rootReal)) if (!configBefore.has(path)) created.push(path);
    created.sort((a, b) => b.length - a.length);
    for (const path of created) if (path !== '.a3s') await removeInside(rootReal, path);
    if (!gitExists) created.push(...(await neutraliseCreatedGitDir(rootReal)));
    return created;
  };
}

// The entry itself (a link is removed, not followed), found through its parent's real path: a
// parent outside the workspace was not writable to the command, so nothing there is touched.
async function removeInside(rootReal: string, path: string): Promise<void> {
  const parent = await realpath(posix.dirname(posix.join(rootReal, path))).catch(() => null);
  if (parent === null || !isUnder(parent, rootReal)) return;
  await rm(posix.join(parent, posix.basename(path)), { recursive: true, force: true }).catch(() => undefined);
}

async function exists(rootReal: string, path: string): Promise<boolean> {
  return (await lstat(posix.join(rootReal, path)).catch(() => null)) !== null;
}
