import { closeSync, fstatSync, openSync, readSync, statSync, constants } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** Bytes of project instructions added to the system prompt at most (all files together). */
export const MAX_PROJECT_INSTRUCTIONS_BYTES = 32 * 1024;

/** One instructions file found for a workspace. */
export interface ProjectInstructionsFile {
  /** Path relative to the workspace (`AGENTS.md`, `../AGENTS.md`). */
  readonly path: string;
  readonly text: string;
  readonly truncated: boolean;
}

/**
 * Finds the project instructions of a local workspace: `AGENTS.md` (or `CLAUDE.md` where a
 * directory has no `AGENTS.md`) in the workspace and each parent directory up to the repository
 * root (the first directory holding a real repository marker, see {@link isRepositoryRoot}; only
 * the workspace itself when there is none).
 * Outermost first, so the closest file has the last word. Regular files only (symlinks and
 * FIFOs are skipped), read with a shared byte budget.
 */
export function findProjectInstructions(workspace: string, budget = MAX_PROJECT_INSTRUCTIONS_BYTES): ProjectInstructionsFile[] {
  const root = resolve(workspace);
  const chain: string[] = [root];
  if (!isRepositoryRoot(root)) {
    for (let dir = dirname(root); dir !== chain[chain.length - 1]; dir = dirname(dir)) {
      chain.push(dir);
      if (isRepositoryRoot(dir)) break;
      if (dirname(dir) === dir) {
        // No repository above: only the workspace's own file counts.
        chain.splice(1);
        break;
      }
    }
  }
  const files: ProjectInstructionsFile[] = [];
  let left = budget;
  for (const dir of chain.reverse()) {
    if (left <= 0) break;
    const file = ['AGENTS.md', 'CLAUDE.md'].map((name) => join(dir, name)).find(isRegularFile);
    if (file === undefined) continue;
    const { text, truncated } = readHead(file, left);
    if (text.trim().length === 0) continue;
    left -= Buffer.byteLength(text);
    files.push({ path: relative(root, file) || file, text, truncated });
  }
  return files;
}

/** The system-prompt section for `files`, each clearly delimited; `''` without files. */
export function projectInstructionsSection(files: readonly ProjectInstructionsFile[]): string {
  if (files.length === 0) return '';
  const parts = files.map((f) => `<project_instructions path="${f.path}">\n${f.text.trim()}${f.truncated ? '\n[... truncated]' : ''}\n</project_instructions>`);
  return `# Project instructions\nThe repository's own instructions for agents (outermost first; the closest wins on conflict):\n${parts.join('\n')}`;
}

/**
 * True when `dir` is the root of a git repository as git itself sees it: `.git` is a directory
 * holding `HEAD`, or a file (worktree, submodule) whose first line is `gitdir: <path>` naming a
 * directory that exists (relative to `dir` when not absolute). An empty or foreign `.git` file
 * is not a marker, so it cannot pull a parent's `AGENTS.md` into the prompt.
 */
export function isRepositoryRoot(dir: string): boolean {
  const marker = join(dir, '.git');
  let stats;
  try {
    stats = statSync(marker);
  } catch {
    return false;
  }
  if (stats.isDirectory()) return isKind(join(marker, 'HEAD'), 'file');
  if (!stats.isFile()) return false;
  let text: string;
  try {
    text = readHead(marker, 4096).text;
  } catch {
    return false;
  }
  const match = /^gitdir: *(\S.*?)\s*$/m.exec(text.split('\n')[0] ?? '');
  if (match === null) return false;
  return isKind(resolve(dir, match[1] as string), 'directory');
}

function isKind(path: string, kind: 'file' | 'directory'): boolean {
  try {
    const stats = statSync(path);
    return kind === 'file' ? stats.isFile() : stats.isDirectory();
  } catch {
    return false;
  }
}

function isRegularFile(path: string): boolean {
  try {
    const fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    try {
      return fstatSync(fd).isFile();
    } finally {
      closeSync(fd);
    }
  } catch {
    return false;
  }
}

function readHead(path: string, maxBytes: number): { text: string; truncated: boolean } {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    const size = fstatSync(fd).size;
    const buffer = Buffer.alloc(Math.min(size, maxBytes));
    const read = readSync(fd, buffer, 0, buffer.length, 0);
    let text = buffer.subarray(0, read).toString('utf8');
    // Never end inside a multi-byte character.
    if (text.endsWith('\uFFFD') && read < size) text = text.slice(0, -1);
    return { text, truncated: size > maxBytes };
  } finally {
    closeSync(fd);
  }
}
