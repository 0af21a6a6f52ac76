import { realpath, rm } from 'node:fs/promises';
import { posix } from 'node:path';

import { isUnder } from './bwrap-args.js';
import { neutraliseCreatedGitDir } from './created-git-dir.js';
import { a3sConfigFiles, existingCandidates, FIXED_PROTECTED_PATHS } from './protected-mounts.js';
import { WorkspaceListing } from './workspace-listing.js';

/**
 * A bind mount needs an existing target, so a protected path that does not exist when a sandboxed
 * call starts (`.mcp.json`, `agent.acl`, `.a3s/hooks`, `.git/hooks` of a repository without
 * one...) is not read-only inside. This closes that gap: the absent ones are noted before the
 * call, and whatever of them exists after it (every process of the call is gone by then: its pid
 * namespace ended) was created by the command and is removed again. Returns the function to run
 * after the call, which resolves to the workspace-relative paths it removed.
 *
 * `before`: the workspace's listings at the call's start.
 *
 * A `.git` that did not exist when the call started (the command ran `git init`, `git clone .`,
 * or wrote a `gitdir:` file) is checked after it by `neutraliseCreatedGitDir`: new hooks and a
 * config setting more than `git init` writes are removed, a `.git` file or link goes entirely.
 */
export async function guardAbsentProtectedPaths(before: WorkspaceListing): Promise<() => Promise<string[]>> {
  const rootReal = before.rootReal;
  const gitExists = (await before.entry('.git')) !== null;
  const candidates = FIXED_PROTECTED_PATHS.filter((path) => gitExists || !path.startsWith('.git/'));
  const present = await existingCandidates(before, candidates);
  const absent = new Set(candidates.filter((path) => !present.has(path)));
  const configBefore = new Set(await a3sConfigFiles(before));
  const a3sBefore = (await before.entry('.a3s')) !== null;
  return async () => {
    // The workspace as the command left it (every process of the call is gone by then).
    const after = new WorkspaceListing(rootReal);
    // A `.a3s` the command made a link (to a directory of the workspace holding `hooks`...): the
    // link goes, and nothing it points at is touched.
    const linked = !a3sBefore && (await after.entry('.a3s'))?.isSymbolicLink() === true;
    const created: string[] = [];
    if (linked) {
      await rm(posix.join(rootReal, '.a3s'), { force: true }).catch(() => undefined);
      created.push('.a3s');
    }
    const now = await existingCandidates(after, [...absent]);
    for (const path of absent) if (!(linked && path.startsWith('.a3s/')) && now.has(path)) created.push(path);
    if (!linked) for (const path of await a3sConfigFiles(after)) if (!configBefore.has(path)) created.push(path);
    created.sort((a, b) => b.length - a.length);
    for (const path of created) if (path !== '.a3s') await removeInside(rootReal, path);
    if (!gitExists && (await after.entry('.git')) !== null) created.push(...(await neutraliseCreatedGitDir(rootReal)));
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

