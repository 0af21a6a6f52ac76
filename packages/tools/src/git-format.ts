import type { ExecResult, ToolOutput } from '@a3s-lab/code-core';
import { DEFAULT_GIT_LIMIT, DEFAULT_GIT_MAX_BYTES } from './git-args.js';
import type { GitArgs } from './git-args.js';
import { pageByBytes, parseGitBranches, parseGitLog, parseGitRemotes, parseGitStatus, parseGitWorktrees } from './git-parse.js';

/** Turns a finished git process into the tool's typed output (metadata per command). */
export function formatGitResult(args: GitArgs, argv: readonly string[], result: ExecResult, offset: number): ToolOutput {
  const command = `git ${args.command}${args.subcommand === undefined ? '' : ` ${args.subcommand}`}`;
  if (result.exitCode !== 0) {
    if (args.command === 'log' && /does not have any commits yet/.test(result.stderr)) {
      return { output: 'No commits yet', metadata: { commits: [], next_cursor: null } };
    }
    const detail = (result.stderr.trim() || result.stdout.trim() || `exit code ${result.exitCode ?? 'none'}`).slice(0, 8192);
    return { output: `${command} failed: ${detail}`, exitCode: result.exitCode ?? 1, metadata: { exit_code: result.exitCode, argv: [...argv] } };
  }
  const incomplete = result.droppedBytes > 0 ? { incomplete: true, dropped_bytes: result.droppedBytes } : {};
  const limit = args.limit ?? DEFAULT_GIT_LIMIT;
  switch (args.command) {
    case 'status': {
      const status = parseGitStatus(result.stdout);
      const lines = [status.branch === null ? `HEAD detached at ${status.commit ?? '(no commit)'}` : `On branch ${status.branch}`];
      if (status.upstream !== null) lines.push(`Tracking ${status.upstream}: ahead ${status.ahead}, behind ${status.behind}`);
      const section = (title: string, entries: readonly string[]): void => {
        if (entries.length > 0) lines.push(`${title}:`, ...entries.map((entry) => `  ${entry}`));
      };
      section('Staged', status.staged.map((e) => `${e.status[0]} ${e.path}${e.from === undefined ? '' : ` (from ${e.from})`}`));
      section('Unstaged', status.unstaged.map((e) => `${e.status[1]} ${e.path}`));
      section('Untracked', status.untracked);
      section('Conflicted', status.conflicted);
      if (status.dirty_count === 0) lines.push('Working tree clean');
      return { output: lines.join('\n'), metadata: { ...status, ...incomplete } };
    }
    case 'log': {
      const commits = parseGitLog(result.stdout);
      const page = commits.slice(0, limit);
      const next = commits.length > limit ? String(offset + limit) : null;
      const lines = page.map((c) => `${c.hash.slice(0, 12)} ${c.date} ${c.author}  ${c.subject}`);
      if (next !== null) lines.push(`... more commits; call git log again with cursor="${next}"`);
      return { output: lines.length === 0 ? 'No commits' : lines.join('\n'), metadata: { commits: page, next_cursor: next, ...incomplete } };
    }
    case 'diff': {
      const page = pageByBytes(result.stdout, offset, args.max_bytes ?? DEFAULT_GIT_MAX_BYTES);
      const next = page.nextOffset === null ? null : String(page.nextOffset);
      let output = page.totalBytes === 0 ? 'No changes' : page.text;
      if (next !== null) output += `\n... diff continues (${page.totalBytes - (page.nextOffset ?? 0)} more bytes); call git diff again with cursor="${next}"`;
      return { output, metadata: { next_cursor: next, total_bytes: page.totalBytes, offset: page.offset, bytes: page.bytes, ...incomplete } };
    }
    case 'branch':
      if ((args.subcommand ?? 'list') === 'list') {
        const branches = parseGitBranches(result.stdout);
        return listPage('branches', branches, offset, limit, (b) => `${b.current ? '*' : ' '} ${b.name} ${b.commit}${b.upstream === null ? '' : ` [${b.upstream}]`}`, {
          current: branches.find((b) => b.current)?.name ?? null,
          ...incomplete,
        });
      }
      break;
    case 'stash':
      if ((args.subcommand ?? 'list') === 'list') {
        const entries = result.stdout
          .split('\n')
          .filter((line) => line.includes('\0'))
          .map((line) => ({ ref: line.slice(0, line.indexOf('\0')), message: line.slice(line.indexOf('\0') + 1) }));
        return listPage('stashes', entries, offset, limit, (s) => `${s.ref} ${s.message}`, incomplete);
      }
      break;
    case 'remote': {
      const remotes = parseGitRemotes(result.stdout);
      return { output: remotes.length === 0 ? 'No remotes' : remotes.map((r) => `${r.name}\t${r.fetch ?? ''}${r.push !== null && r.push !== r.fetch ? ` (push: ${r.push})` : ''}`).join('\n'), metadata: { remotes } };
    }
    case 'worktree':
      if ((args.subcommand ?? 'list') === 'list') {
        const worktrees = parseGitWorktrees(result.stdout);
        return listPage('worktrees', worktrees, offset, limit, (w) => `${w.path} ${w.head?.slice(0, 12) ?? ''} ${w.branch === null ? (w.detached ? '(detached)' : '') : `[${w.branch}]`}`, incomplete);
      }
      break;
    case 'checkout':
      break;
  }
  const text = [result.stdout.trim(), result.stderr.trim()].filter((part) => part !== '').join('\n');
  return { output: text === '' ? `${command}: done` : text, metadata: { exit_code: result.exitCode, argv: [...argv] } };
}

function listPage<T>(key: string, items: readonly T[], offset: number, limit: number, render: (item: T) => string, extra: Record<string, unknown>): ToolOutput {
  const page = items.slice(offset, offset + limit);
  const next = offset + limit < items.length ? String(offset + limit) : null;
  const lines = page.map(render);
  if (next !== null) lines.push(`... more ${key}; call again with cursor="${next}"`);
  return { output: lines.length === 0 ? `No ${key}` : lines.join('\n'), metadata: { [key]: page, total: items.length, next_cursor: next, ...extra } };
}
