import { lstat, readdir, readFile, rm } from 'node:fs/promises';
import { posix } from 'node:path';

// What `git init` / `git clone` / `git worktree add` / `git config user.*` write to a config:
// nothing git runs, nothing that points git at a command. Any other key (core.hooksPath,
// core.fsmonitor, core.sshCommand, aliases, filters, include...) makes the file unsafe.
const SAFE_CONFIG_KEYS = new Set([
  'core.repositoryformatversion', 'core.filemode', 'core.bare', 'core.logallrefupdates', 'core.ignorecase', 'core.precomposeunicode',
  'core.symlinks', 'core.worktree', 'core.autocrlf', 'extensions.objectformat', 'extensions.refstorage', 'extensions.worktreeconfig',
  'remote.*.url', 'remote.*.fetch', 'branch.*.remote', 'branch.*.merge', 'submodule.*.url', 'submodule.*.active', 'user.name', 'user.email',
  'init.defaultbranch',
]);
const NESTED_GIT_DIRS = ['modules', 'worktrees'];
const MAX_NESTED_DEPTH = 4;

/**
 * The first key of the git config `text` that is not known to be harmless (see
 * `SAFE_CONFIG_KEYS`), or null when every key is. Anything the parser does not understand
 * (a continued line, a malformed header) counts as unsafe.
 */
export function unsafeGitConfigKey(text: string): string | null {
  let section: string | null = null;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    if (line.endsWith('\\')) return `${section ?? '?'} (a continued line)`;
    const header = /^\[\s*([A-Za-z0-9-]+)(?:\.([^\]\s"]+)|\s+"(?:[^"\\]|\\.)*")?\s*\]\s*(.*)$/.exec(line);
    let rest = line;
    if (header !== null) {
      section = `${(header[1] as string).toLowerCase()}${header[0].includes('"') || header[2] !== undefined ? '.*' : ''}`;
      rest = (header[3] as string).trim();
      if (rest === '' || rest.startsWith('#') || rest.startsWith(';')) continue;
    } else if (line.startsWith('[')) {
      return `${line.slice(0, 40)} (an unreadable section header)`;
    }
    const key = /^([A-Za-z][A-Za-z0-9-]*)\s*(?:=|$|[#;])/.exec(rest)?.[1];
    if (section === null || key === undefined) return `${rest.slice(0, 40)} (an unreadable line)`;
    const name = `${section}.${key.toLowerCase()}`;
    if (!SAFE_CONFIG_KEYS.has(name)) return name;
  }
  return null;
}

/**
 * A `.git` a sandboxed command created (it did not exist when the call started, so nothing of it
 * was mounted read-only): what git would run or read configuration from is removed, through the
 * workspace's real path `rootReal`, and returned workspace-relative. A `.git` that is not a
 * directory (a `gitdir:` file or a link pointing git at files written elsewhere) goes entirely;
 * in a `.git` directory (also nested `modules/*` and `worktrees/*`): hooks other than git's own
 * `*.sample` files, a `config` / `config.worktree` that sets anything beyond what `git init` and
 * `git clone` write, a `commondir` other than the one `git worktree add` writes. The rest of the
 * new repository (objects, refs, index) stays.
 */
export async function neutraliseCreatedGitDir(rootReal: string): Promise<string[]> {
  const gitPath = posix.join(rootReal, '.git');
  const stats = await lstat(gitPath).catch(() => null);
  if (stats === null) return [];
  if (!stats.isDirectory()) {
    await rm(gitPath, { recursive: true, force: true }).catch(() => undefined);
    return ['.git'];
  }
  return neutraliseGitDir(rootReal, '.git', 0);
}

async function neutraliseGitDir(rootReal: string, relative: string, level: number): Promise<string[]> {
  const removed: string[] = [];
  const remove = async (path: string): Promise<void> => {
    await rm(posix.join(rootReal, path), { recursive: true, force: true }).catch(() => undefined);
    removed.push(path);
  };
  const entries = await readdir(posix.join(rootReal, relative), { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    const path = `${relative}/${entry.name}`;
    if (entry.name === 'hooks') {
      if (!entry.isDirectory()) await remove(path);
      else for (const hook of await readdir(posix.join(rootReal, path), { withFileTypes: true }).catch(() => [])) if (!(hook.isFile() && hook.name.endsWith('.sample'))) await remove(`${path}/${hook.name}`);
    } else if (entry.name === 'config' || entry.name === 'config.worktree') {
      const text = entry.isFile() ? await readFile(posix.join(rootReal, path), 'utf8').catch(() => null) : null;
      if (text === null || unsafeGitConfigKey(text) !== null) await remove(path);
    } else if (entry.name === 'commondir') {
      const text = entry.isFile() ? await readFile(posix.join(rootReal, path), 'utf8').catch(() => null) : null;
      if (text?.trim() !== '../..') await remove(path);
    } else if (level > 0 || NESTED_GIT_DIRS.includes(entry.name)) {
      // Submodule and worktree git directories: the same rules one level down; a link there
      // would point git at a directory written elsewhere.
      if (entry.isSymbolicLink()) await remove(path);
      else if (entry.isDirectory() && level < MAX_NESTED_DEPTH) removed.push(...(await neutraliseGitDir(rootReal, path, level + 1)));
    }
  }
  return removed;
}
