import { utf8Boundary, utf8Decoder, utf8Encoder } from './tool-support.js';

/** One path in `git status`. */
export interface GitStatusEntry {
  readonly path: string;
  /** Two-letter XY code (`M.`, `.M`, `A.`, `R.`...) or `??` for untracked. */
  readonly status: string;
  /** Source path of a rename or copy. */
  readonly from?: string;
}

/** Parsed `git status --porcelain=v2 --branch -z`. */
export interface GitStatus {
  readonly branch: string | null;
  readonly commit: string | null;
  readonly upstream: string | null;
  readonly ahead: number;
  readonly behind: number;
  readonly staged: GitStatusEntry[];
  readonly unstaged: GitStatusEntry[];
  readonly untracked: string[];
  readonly conflicted: string[];
  /** Paths with any change (staged, unstaged, untracked or conflicted), each counted once. */
  readonly dirty_count: number;
}

/** Parses NUL-separated porcelain v2 status records. */
export function parseGitStatus(stdout: string): GitStatus {
  let branch: string | null = null;
  let commit: string | null = null;
  let upstream: string | null = null;
  let ahead = 0;
  let behind = 0;
  const staged: GitStatusEntry[] = [];
  const unstaged: GitStatusEntry[] = [];
  const untracked: string[] = [];
  const conflicted: string[] = [];
  const dirty = new Set<string>();
  const records = stdout.split('\0');
  for (let i = 0; i < records.length; i += 1) {
    const record = records[i] as string;
    if (record.startsWith('# branch.head ')) {
      const head = record.slice(14);
      branch = head === '(detached)' ? null : head;
    } else if (record.startsWith('# branch.oid ')) {
      const oid = record.slice(13);
      commit = oid === '(initial)' ? null : oid;
    } else if (record.startsWith('# branch.upstream ')) upstream = record.slice(18);
    else if (record.startsWith('# branch.ab ')) {
      const match = /^\+(\d+) -(\d+)$/.exec(record.slice(12));
      ahead = Number(match?.[1] ?? 0);
      behind = Number(match?.[2] ?? 0);
    } else if (record.startsWith('1 ') || record.startsWith('2 ')) {
      const fields = splitFields(record, record.startsWith('1 ') ? 8 : 9);
      const xy = fields[1] ?? '..';
      const path = fields[fields.length - 1] ?? '';
      const from = record.startsWith('2 ') ? records[++i] : undefined;
      const entry = (status: string): GitStatusEntry => ({ path, status, ...(from === undefined ? {} : { from }) });
      if (xy[0] !== '.') staged.push(entry(xy));
      if (xy[1] !== '.') unstaged.push(entry(xy));
      dirty.add(path);
    } else if (record.startsWith('u ')) {
      const fields = splitFields(record, 10);
      const path = fields[fields.length - 1] ?? '';
      conflicted.push(path);
      dirty.add(path);
    } else if (record.startsWith('? ')) {
      untracked.push(record.slice(2));
      dirty.add(record.slice(2));
    }
  }
  return { branch, commit, upstream, ahead, behind, staged, unstaged, untracked, conflicted, dirty_count: dirty.size };
}

/** Splits `count` space-separated fields, the last one keeping any spaces (a path). */
function splitFields(record: string, count: number): string[] {
  const fields: string[] = [];
  let rest = record;
  for (let i = 0; i < count; i += 1) {
    const space = rest.indexOf(' ');
    if (space === -1) break;
    fields.push(rest.slice(0, space));
    rest = rest.slice(space + 1);
  }
  fields.push(rest);
  return fields;
}

/** One commit of `git log`. */
export interface GitCommit {
  readonly hash: string;
  readonly author: string;
  readonly date: string;
  readonly subject: string;
}

/** `--format` for {@link parseGitLog}: a record separator, then fields separated by NUL. */
export const GIT_LOG_FORMAT = '--format=%x1e%H%x00%an <%ae>%x00%aI%x00%s';

/** Parses `git log` output produced with {@link GIT_LOG_FORMAT}. */
export function parseGitLog(stdout: string): GitCommit[] {
  const commits: GitCommit[] = [];
  for (const record of stdout.split('\x1e')) {
    const fields = record.replace(/\n+$/, '').split('\0');
    if (fields.length < 4) continue;
    commits.push({ hash: fields[0] as string, author: fields[1] as string, date: fields[2] as string, subject: fields.slice(3).join(' ') });
  }
  return commits;
}

/** One local branch. */
export interface GitBranch {
  readonly name: string;
  readonly current: boolean;
  readonly commit: string;
  readonly upstream: string | null;
}

/** `--format` for {@link parseGitBranches}. */
export const GIT_BRANCH_FORMAT = '--format=%(HEAD)%00%(refname:short)%00%(objectname:short)%00%(upstream:short)';

/** Parses `git branch --list` output produced with {@link GIT_BRANCH_FORMAT}. */
export function parseGitBranches(stdout: string): GitBranch[] {
  return stdout
    .split('\n')
    .filter((line) => line.includes('\0'))
    .map((line) => {
      const [head = '', name = '', commit = '', upstream = ''] = line.split('\0');
      return { name, current: head === '*', commit, upstream: upstream === '' ? null : upstream };
    });
}

/** One worktree of `git worktree list --porcelain`. */
export interface GitWorktree {
  readonly path: string;
  readonly head: string | null;
  readonly branch: string | null;
  readonly detached: boolean;
  readonly bare: boolean;
}

/** Parses `git worktree list --porcelain` (blank-line separated records). */
export function parseGitWorktrees(stdout: string): GitWorktree[] {
  return stdout
    .split(/\n\n+/)
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const fields = new Map<string, string>();
      for (const line of block.split('\n')) {
        const space = line.indexOf(' ');
        fields.set(space === -1 ? line : line.slice(0, space), space === -1 ? '' : line.slice(space + 1));
      }
      const branch = fields.get('branch');
      return {
        path: fields.get('worktree') ?? '',
        head: fields.get('HEAD') ?? null,
        branch: branch === undefined ? null : branch.replace(/^refs\/heads\//, ''),
        detached: fields.has('detached'),
        bare: fields.has('bare'),
      };
    });
}

/** One remote with its URLs. */
export interface GitRemote {
  readonly name: string;
  readonly fetch: string | null;
  readonly push: string | null;
}

/** Parses `git remote -v`. */
export function parseGitRemotes(stdout: string): GitRemote[] {
  const remotes = new Map<string, { name: string; fetch: string | null; push: string | null }>();
  for (const line of stdout.split('\n')) {
    const match = /^(\S+)\t(.+) \((fetch|push)\)$/.exec(line);
    if (match === null) continue;
    const name = match[1] as string;
    const remote = remotes.get(name) ?? { name, fetch: null, push: null };
    if (match[3] === 'fetch') remote.fetch = match[2] as string;
    else remote.push = match[2] as string;
    remotes.set(name, remote);
  }
  return [...remotes.values()];
}

/** A page of text cut by UTF-8 bytes. */
export interface BytePage {
  readonly text: string;
  readonly offset: number;
  readonly bytes: number;
  readonly totalBytes: number;
  /** Byte offset of the next page, or null at the end. */
  readonly nextOffset: number | null;
}

/**
 * The page of `text` starting at byte `offset` holding at most `maxBytes` bytes. The cut prefers
 * the last line break in the second half of the window and never splits a code point, so
 * concatenating every page gives back the exact text.
 */
export function pageByBytes(text: string, offset: number, maxBytes: number): BytePage {
  const bytes = utf8Encoder.encode(text);
  const start = utf8Boundary(bytes, Math.min(offset, bytes.byteLength));
  let end = Math.min(bytes.byteLength, start + maxBytes);
  if (end < bytes.byteLength) {
    const newline = bytes.subarray(start, end).lastIndexOf(10);
    if (newline >= maxBytes / 2) end = start + newline + 1;
    else end = utf8Boundary(bytes, end);
    if (end <= start) end = Math.min(bytes.byteLength, start + 4);
  }
  return { text: utf8Decoder.decode(bytes.subarray(start, end)), offset: start, bytes: end - start, totalBytes: bytes.byteLength, nextOffset: end < bytes.byteLength ? end : null };
}
