import { CodeError, defineTool, toolFailure } from '@a3s-lab/code-core';
import type { ExecResult, Tool, ToolCapabilities, ToolContext, ToolOutput } from '@a3s-lab/code-core';
import { DEFAULT_GIT_LIMIT, GIT_PARAMETERS } from './git-args.js';
import type { GitArgs } from './git-args.js';
import { formatGitResult } from './git-format.js';
import { GIT_BRANCH_FORMAT, GIT_LOG_FORMAT } from './git-parse.js';
import { invalidArgument, mutatingCapabilities, parseOffsetCursor, readOnlyCapabilities } from './tool-support.js';

/** Deadline of one git process. */
export const GIT_TIMEOUT_MS = 60_000;
/** Capture bound of one git process (diff pages are cut from it). */
export const GIT_CAPTURE_BYTES = 32 * 1024 * 1024;

const ALLOWED: Readonly<Record<GitArgs['command'], readonly string[]>> = {
  status: [],
  log: [],
  diff: [],
  checkout: [],
  branch: ['list', 'create', 'remove'],
  stash: ['list', 'push', 'pop', 'apply', 'drop'],
  remote: ['list'],
  worktree: ['list', 'create', 'remove'],
};

/** True when these args only read the repository. */
export function isReadOnlyGit(args: GitArgs): boolean {
  return args.command === 'status' || args.command === 'log' || args.command === 'diff' || ((args.subcommand ?? 'list') === 'list' && args.command !== 'checkout');
}

/**
 * Creates the `git` tool: typed, paginated git through `workspace.git` (an argv, never a shell).
 * status/log/diff and list subcommands are read-only; checkout, branch create/remove, stash
 * push/pop/apply/drop and worktree create/remove change the repository.
 */
export function createGitTool(): Tool<GitArgs> {
  return defineTool({
    name: 'git',
    description:
      'git with typed results: status, log, diff, checkout (ref); branch/stash/remote/worktree list, or subcommand: ' +
      'branch create/remove (name, ref), stash push/pop/apply/drop, worktree create/remove (path, branch, ref).',
    parameters: GIT_PARAMETERS,
    requires: ['git'],
    capabilities: (args): Partial<ToolCapabilities> => {
      const paginated = args.command === 'log' || args.command === 'diff' || ((args.subcommand ?? 'list') === 'list' && ['branch', 'stash', 'worktree'].includes(args.command));
      const outputKind = args.command === 'diff' ? 'diff' : 'text';
      return isReadOnlyGit(args) ? readOnlyCapabilities({ resumable: paginated, supportsPagination: paginated, outputKind }) : mutatingCapabilities();
    },
    permissionTarget: (args) => ({
      kind: 'command',
      command: ['git', args.command, args.subcommand, args.name, args.branch, args.ref, args.path].filter((part): part is string => part !== undefined).join(' '),
    }),
    execute: (args, context) => executeGit(args, context),
  });
}

const REF = /^[^-\s\x00-\x1f\x7f?*[\\:][^\s\x00-\x1f\x7f?*[\\:]*$/;
const BRANCH = /^(?!-)(?!.*\.\.)(?!.*\/\/)(?!.*@\{)(?!.*\.lock$)(?!.*\/$)[A-Za-z0-9._/-]+$/;

async function executeGit(args: GitArgs, context: ToolContext): Promise<ToolOutput> {
  const { workspace, abortSignal } = context;
  if (workspace.git === undefined) return toolFailure('this workspace has no git support', { type: 'unsupported', message: 'workspace has no git capability' });
  const allowed = ALLOWED[args.command];
  if (args.subcommand !== undefined && !allowed.includes(args.subcommand)) {
    return invalidArgument(allowed.length === 0 ? `git ${args.command} takes no subcommand` : `git ${args.command} supports subcommand ${allowed.join(' | ')}, not ${args.subcommand}`);
  }
  for (const [field, value] of [['ref', args.ref], ['branch', args.branch], ['name', args.name]] as const) {
    if (value !== undefined && !(field === 'ref' ? REF : BRANCH).test(value)) return invalidArgument(`invalid ${field} ${JSON.stringify(value)}: it must not start with '-' or contain spaces or special characters`);
  }
  const offset = parseOffsetCursor(args.cursor);
  if (offset === null) return invalidArgument(`invalid cursor ${JSON.stringify(args.cursor)}`);
  let path: string | undefined;
  if (args.path !== undefined) {
    try {
      path = await workspace.resolvePath({ path: args.path, abortSignal, forWrite: args.command === 'worktree' });
    } catch (error) {
      if (CodeError.hasCode(error, 'SECURITY_ERROR')) return toolFailure(error.message, { type: 'permission_denied', reason: error.message });
      throw error;
    }
  }
  const argv = buildArgv(args, path, offset);
  if (typeof argv === 'string') return invalidArgument(argv);
  const result: ExecResult = await workspace.git({ args: argv, abortSignal, timeoutMs: GIT_TIMEOUT_MS, maxOutputBytes: GIT_CAPTURE_BYTES });
  if (result.timedOut) return toolFailure(`git ${args.command} timed out after ${GIT_TIMEOUT_MS} ms`, { type: 'timeout', op: `git ${args.command}`, duration_ms: GIT_TIMEOUT_MS });
  if (result.cancelled) return toolFailure(`git ${args.command} was cancelled`, { type: 'cancelled', op: `git ${args.command}` });
  return formatGitResult(args, argv, result, offset);
}

/** The argv after `git`, or a message saying why the args do not make a command. */
function buildArgv(args: GitArgs, path: string | undefined, offset: number): string[] | string {
  const paths = path === undefined ? [] : ['--', path];
  const limit = args.limit ?? DEFAULT_GIT_LIMIT;
  const subcommand = args.subcommand ?? 'list';
  switch (args.command) {
    case 'status':
      return ['status', '--porcelain=v2', '--branch', '-z', ...(path === undefined ? [] : ['--', path])];
    case 'log':
      return ['log', '--no-color', GIT_LOG_FORMAT, `--skip=${offset}`, '-n', String(limit + 1), ...(args.ref === undefined ? [] : [args.ref]), '--', ...(path === undefined ? [] : [path])];
    case 'diff':
      return ['diff', '--no-color', '--no-ext-diff', ...(args.staged === true ? ['--cached'] : []), ...(args.ref === undefined ? [] : [args.ref]), '--', ...(path === undefined ? [] : [path])];
    case 'checkout': {
      const target = args.ref ?? args.branch;
      if (target === undefined) return 'git checkout needs ref (or branch)';
      return ['checkout', target, '--'];
    }
    case 'branch':
      if (subcommand === 'list') return ['branch', '--list', '--no-color', GIT_BRANCH_FORMAT];
      if (args.name === undefined) return `git branch ${subcommand} needs name`;
      return subcommand === 'create' ? ['branch', args.name, ...(args.ref === undefined ? [] : [args.ref])] : ['branch', '-d', args.name];
    case 'stash':
      if (subcommand === 'list') return ['stash', 'list', '--format=%gd%x00%s'];
      if (subcommand === 'push') return ['stash', 'push', ...(args.message === undefined ? [] : ['-m', args.message]), ...paths];
      if (args.ref !== undefined && !/^stash@\{\d+\}$/.test(args.ref)) return `git stash ${subcommand} takes ref of the form stash@{n}`;
      return ['stash', subcommand, ...(args.ref === undefined ? [] : [args.ref])];
    case 'remote':
      return ['remote', '-v'];
    case 'worktree':
      if (subcommand === 'list') return ['worktree', 'list', '--porcelain'];
      if (path === undefined) return `git worktree ${subcommand} needs path`;
      if (subcommand === 'create') return ['worktree', 'add', ...(args.branch === undefined ? [] : ['-b', args.branch]), '--', path, ...(args.ref === undefined ? [] : [args.ref])];
      return ['worktree', 'remove', '--', path];
  }
}
