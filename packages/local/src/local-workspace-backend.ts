import { lstat } from 'node:fs/promises';
import { posix } from 'node:path';

import { HostFailure, toHostFailure } from '@a3s-lab/code-core';
import type {
  ByteRange,
  BackendCallOptions,
  ExecOptions,
  ExecResult,
  GitOptions,
  GlobOptions,
  Page,
  SearchOptions,
  SearchResult,
  WorkspaceBackend,
  WorkspaceCapabilities,
  WorkspaceEntry,
  WorkspaceFile,
  WorkspaceStat,
  SandboxNetwork,
  SandboxStatus,
  WriteFileOptions,
} from '@a3s-lab/code-core';

import { throwIfAborted } from '@a3s-lab/code-core/util';
import { atomicWrite } from './atomic-write.js';
import { buildChildEnv } from './child-env.js';
import { confinePath, realRoot } from './confine-path.js';
import type { ConfinedPath } from './confine-path.js';
import { deleteConfined, listConfined, readConfinedFile, statConfined } from './file-operations.js';
import { GIT_ENV, gitCommandLineConfig, validateGitArgs } from './git-args.js';
import { gitConfigEnvironment, repositoryConfigOverrides } from './git-hardening.js';
import type { RunProcessOptions } from './process-runner.js';
import { WorkspaceProcesses } from './workspace-processes.js';
import { WorkspaceSearch } from './workspace-search.js';
import { HooksPathsReader } from './hooks-paths.js';
import { isInsideHooksPath, isProtectedPath } from './protected-paths.js';
import { backendCall } from './local-io.js';
import type { SearchResultCacheOptions } from './search/search-result-cache.js';
import { pathSecurityError } from './security-error.js';
import { ProcessSandbox } from './sandbox/process-sandbox.js';
import { DenyReadRules } from './sandbox/deny-read.js';
import type { LocalSandboxOptions } from './sandbox/process-sandbox.js';

/** Default deadline of a `git()` call. */
export const DEFAULT_GIT_TIMEOUT_MS = 60_000;

/** Options of {@link LocalWorkspaceBackend}. */
export interface LocalWorkspaceBackendOptions {
  /**
   * Which search engine serves `search()` and `glob()`: `ripgrep` (the `@vscode/ripgrep` binary),
   * `fallback` (pure TypeScript) or `auto` = ripgrep when its binary exists, else the fallback.
   * Default `auto`. `ripgrep` fails calls with `Unavailable` when the binary is missing.
   */
  readonly searchEngine?: 'auto' | 'ripgrep' | 'fallback';
  /** Explicit ripgrep binary; default the one of `@vscode/ripgrep`. */
  readonly ripgrepPath?: string;
  /** Byte budget of exec/git capture when a call does not set one; default 1 MiB. */
  readonly maxOutputBytes?: number;
  /** SIGTERM -> SIGKILL grace for process groups; default 2000 ms. */
  readonly killGraceMs?: number;
  /** Pipe drain window after the main child exits; default 250 ms. */
  readonly drainGraceMs?: number;
  /** Environment variables every child gets on purpose (may include secrets the host chooses to pass). */
  readonly env?: Readonly<Record<string, string>>;
  /**
   * Let the repository's own git configuration run its programs in `git()` calls: fsmonitor,
   * hooks, textconv and filter drivers, external diff, pagers, credential helpers, transports.
   * Default false: those are disabled at command-line scope, and a repository config that sets
   * one that cannot be disabled (`diff.external`, `diff.<driver>.command`, `core.sshCommand`,
   * includes...) makes the call fail with SECURITY_ERROR `git_repository_executable`.
   */
  readonly trustRepositoryGitConfig?: boolean;
  /**
   * Result sets of `search()`/`glob()` kept for their following pages, so fetching page N does not
   * rescan the tree: bounded by entries and estimated bytes, expiring after `ttlMs`, and dropped
   * whenever the workspace is written through this backend (`writeFile`, `deleteFile`, `exec`,
   * `git`). Changes made around the backend are seen once an entry expires. `false` disables it.
   * Default `{ ttlMs: 120000, maxEntries: 16, maxBytes: 64 MiB }`.
   */
  readonly searchCache?: SearchResultCacheOptions | false;
  /**
   * The OS sandbox (bubblewrap on Linux) of every process `exec()` and `git()` start: the system
   * read-only, the workspace writable except its protected paths, a private /tmp, the host's
   * secrets (`~/.ssh`, `~/.aws`... plus `denyRead`) hidden, new user/pid/ipc namespaces, no
   * network by default. Default `{ mode: 'off' }` for a backend built directly; sessions the SDK
   * opens pass their `sandbox` option (default `auto`). `required` makes the constructor throw
   * SANDBOX_UNAVAILABLE when no sandbox can start; see {@link LocalWorkspaceBackend.sandboxStatus}.
   */
  readonly sandbox?: LocalSandboxOptions;
}

const CAPABILITIES: WorkspaceCapabilities = Object.freeze({ read: true, write: true, list: true, search: true, exec: true, git: true, versionedWrites: true });

/**
 * A workspace on the local filesystem. Every path of every method (including exec's cwd, search
 * roots and git's repository) goes through one confinement function; writes are atomic (temp
 * file + fsync + rename) and refused on the agent's own config/hook/MCP files; processes run in
 * their own process group with bounded capture; search uses ripgrep or a TypeScript fallback.
 *
 * @example
 * const backend = new LocalWorkspaceBackend('/repo');
 * await backend.writeFile({ path: 'notes.txt', content: 'hello\n' });
 */
export class LocalWorkspaceBackend implements WorkspaceBackend {
  readonly kind = 'local';
  readonly root: string;
  readonly capabilities: WorkspaceCapabilities = CAPABILITIES;
  private readonly options: LocalWorkspaceBackendOptions;
  private rootRealPromise: Promise<string> | undefined;
  private readonly searching: WorkspaceSearch;
  private readonly hooksPaths = new HooksPathsReader();
  private readonly sandbox: ProcessSandbox;
  private readonly denyRead: DenyReadRules | undefined;
  private readonly processes: WorkspaceProcesses;

  /**
   * @param root workspace directory (must exist when the first call runs).
   * @throws CodeError SANDBOX_UNAVAILABLE with `sandbox.mode: 'required'` when no sandbox can start.
   */
  constructor(root: string, options: LocalWorkspaceBackendOptions = {}) {
    this.root = posix.resolve(root);
    this.options = options;
    this.sandbox = new ProcessSandbox(options.sandbox);
    this.denyRead = options.sandbox === undefined ? undefined : new DenyReadRules(this.sandbox.policy);
    const rootReal = (): Promise<string> => this.rootReal();
    const { searchEngine, ripgrepPath, searchCache, maxOutputBytes, killGraceMs, drainGraceMs } = options;
    this.searching = new WorkspaceSearch({ searchEngine, ripgrepPath, searchCache, rootReal, denyRead: this.denyRead });
    this.processes = new WorkspaceProcesses({ sandbox: this.sandbox, hooksPaths: this.hooksPaths, rootReal, searchCache: this.searching.cache, maxOutputBytes, killGraceMs, drainGraceMs });
  }

  resolvePath(options: BackendCallOptions & { readonly path: string; readonly forWrite?: boolean }): Promise<string> {
    return backendCall(async () => {
      const target = await this.confine(options.path, options.abortSignal);
      if (options.forWrite === true) await this.refuseProtected(target, options.path);
      return target.relative;
    });
  }

  readFile(options: BackendCallOptions & { readonly path: string; readonly range?: ByteRange }): Promise<WorkspaceFile | null> {
    return backendCall(async () => readConfinedFile(await this.confine(options.path, options.abortSignal), options.range));
  }

  stat(options: BackendCallOptions & { readonly path: string }): Promise<WorkspaceStat | null> {
    return backendCall(async () => statConfined(await this.confine(options.path, options.abortSignal)));
  }

  writeFile(options: WriteFileOptions): Promise<{ readonly path: string; readonly version: string }> {
    return backendCall(async () => {
      const target = await this.confine(options.path, options.abortSignal);
      await this.refuseProtected(target, options.path);
      const content = typeof options.content === 'string' ? Buffer.from(options.content, 'utf8') : options.content;
      this.searching.cache?.clear();
      const { version } = await atomicWrite({
        rootReal: await this.rootReal(),
        target,
        content,
        ...(options.expectedVersion === undefined ? {} : { expectedVersion: options.expectedVersion }),
        ...(options.abortSignal === undefined ? {} : { abortSignal: options.abortSignal }),
      });
      return { path: target.relative, version };
    });
  }

  deleteFile(options: BackendCallOptions & { readonly path: string; readonly expectedVersion?: string }): Promise<boolean> {
    return backendCall(async () => {
      const target = await this.confine(options.path, options.abortSignal);
      await this.refuseProtected(target, options.path);
      this.searching.cache?.clear();
      return deleteConfined(target, options.expectedVersion);
    });
  }

  list(options: BackendCallOptions & { readonly path: string; readonly limit: number; readonly cursor?: string }): Promise<Page<WorkspaceEntry> | null> {
    return backendCall(async () => {
      const target = await this.confine(options.path, options.abortSignal);
      const page = await listConfined(target, options.limit, options.cursor);
      const denied = this.denyRead?.insideWorkspace(await this.rootReal()) ?? [];
      if (page === null || denied.length === 0) return page;
      return { ...page, items: page.items.filter((entry) => !denied.some((prefix) => entry.path === prefix || entry.path.startsWith(`${prefix}/`))) };
    });
  }

  glob(options: GlobOptions): Promise<Page<string>> {
    return backendCall(async () => this.searching.glob(await this.confineDirectory(options.path ?? '.', options.abortSignal), options));
  }

  search(options: SearchOptions): Promise<SearchResult> {
    return backendCall(async () => this.searching.search(await this.confine(options.path ?? '.', options.abortSignal), options));
  }

  /**
   * Runs `bash -c command` in its own process group (see `runProcess`). When the signal aborts
   * mid-run the group is killed and the call rejects with an `AbortError` whose `result`
   * property holds the partial {@link ExecResult} (`cancelled: true`).
   */
  exec(options: ExecOptions): Promise<ExecResult> {
    return backendCall(async () => {
      const cwd = await this.confineDirectory(options.cwd ?? '.', options.abortSignal);
      return this.processes.run(
        { file: 'bash', args: ['-c', options.command], cwd: cwd.absolute, env: buildChildEnv({ ...this.options.env, ...options.env }), timeoutMs: options.timeoutMs },
        options,
      );
    });
  }

  /**
   * Runs the git CLI (argv, never a shell) in the workspace root: `git --no-pager <args>` with
   * {@link GIT_ENV}, inherited `GIT_*` variables removed and `GIT_CEILING_DIRECTORIES` set so git
   * never discovers a repository above the workspace. A `.git` symlink leading out is refused.
   * Cancellation behaves like {@link exec}.
   */
  git(options: GitOptions): Promise<ExecResult> {
    return backendCall(async () => {
      validateGitArgs(options.args);
      const root = await this.confineDirectory('.', options.abortSignal);
      await this.checkGitDirectory();
      const base: NodeJS.ProcessEnv = {};
      for (const [name, value] of Object.entries(process.env)) if (!name.startsWith('GIT_')) base[name] = value;
      const trust = this.options.trustRepositoryGitConfig === true;
      const spec = (args: readonly string[], config: ReadonlyArray<readonly [string, string]>, timeoutMs: number): Pick<RunProcessOptions, 'file' | 'args' | 'cwd' | 'env' | 'timeoutMs'> => ({
        file: 'git',
        args: ['--no-pager', ...args],
        cwd: root.absolute,
        env: buildChildEnv({ ...this.options.env, ...GIT_ENV, ...gitConfigEnvironment(config), GIT_CEILING_DIRECTORIES: posix.dirname(root.absolute) }, base),
        timeoutMs,
      });
      const config = gitCommandLineConfig(trust);
      if (!trust) {
        // `git config` only reads files; what the repository configures decides what to disarm.
        const listed = await this.processes.run(spec(['config', '--local', '--includes', '--list', '-z'], config, DEFAULT_GIT_TIMEOUT_MS), options);
        config.push(...repositoryConfigOverrides(listed.exitCode === 0 ? listed.stdout : ''));
      }
      return this.processes.run(spec(options.args, config, options.timeoutMs ?? DEFAULT_GIT_TIMEOUT_MS), options);
    });
  }

  /** Kills every live process group started by this backend. Idempotent. */
  async close(): Promise<void> {
    this.processes.close();
    this.sandbox.close();
  }

  /** The sandbox of this backend's processes: `{ active, kind, network, reason? }`. */
  sandboxStatus(): SandboxStatus {
    return this.sandbox.status();
  }

  /**
   * The `sandbox.network` this backend was built with, as given (undefined when unset): a session
   * on it applies the same network policy to its web tools (one policy for every tool).
   */
  sandboxNetwork(): SandboxNetwork | undefined {
    return this.options.sandbox?.network;
  }

  /** Name of the search engine in use (`ripgrep` or `fallback`), resolving it if needed. */
  async searchEngineName(): Promise<string> {
    return (await this.searching.engine()).name;
  }

  private rootReal(): Promise<string> {
    this.rootRealPromise ??= realRoot(this.root).catch((error: unknown) => {
      this.rootRealPromise = undefined;
      throw toHostFailure(error, '.');
    });
    return this.rootRealPromise;
  }

  private async confine(path: string, signal: AbortSignal | undefined): Promise<ConfinedPath> {
    throwIfAborted(signal);
    const target = await confinePath(await this.rootReal(), path);
    throwIfAborted(signal);
    const denied = this.denyRead?.deniedBy(target.absolute);
    if (denied !== undefined) throw pathSecurityError(path, 'denied_path', `the sandbox policy denies reading ${target.relative} (deny-read ${denied})`, { resolved: target.relative });
    return target;
  }

  private async confineDirectory(path: string, signal: AbortSignal | undefined): Promise<ConfinedPath> {
    const target = await this.confine(path, signal);
    const stats = target.exists ? await lstat(target.absolute).catch(() => null) : null;
    if (stats === null) throw new HostFailure('NotFound', `no such directory: ${target.relative}`, { path: target.relative, details: { hostCode: 'ENOENT' } });
    if (!stats.isDirectory()) throw new HostFailure('Conflict', `not a directory: ${target.relative}`, { path: target.relative, details: { hostCode: 'ENOTDIR' } });
    return target;
  }

  private async refuseProtected(target: ConfinedPath, input: string): Promise<void> {
    // Both the resolved and the literal form: a symlink to a protected file, or a protected name
    // reached through a symlinked directory, are refused alike.
    const literal = posix.normalize(input.startsWith('/') ? posix.relative(this.root, input) : input);
    if (isProtectedPath(target.relative) || isProtectedPath(literal)) {
      throw pathSecurityError(input, 'protected_path', `writing the agent's own configuration is not allowed: ${target.relative}`, { resolved: target.relative });
    }
    const hooks = await this.configuredHooksPaths();
    if (isInsideHooksPath(target.relative, hooks) || isInsideHooksPath(literal, hooks)) {
      throw pathSecurityError(input, 'protected_path', `writing a git hook (inside core.hooksPath) is not allowed: ${target.relative}`, { resolved: target.relative });
    }
  }

  /**
   * The repository's `core.hooksPath` directories (from `.git/config` and `.git/config.worktree`)
   * that lie inside the workspace, workspace-relative: hooks there run on the user's next commit.
   */
  private async configuredHooksPaths(): Promise<readonly string[]> {
    return this.hooksPaths.read(await this.rootReal());
  }


  private async checkGitDirectory(): Promise<void> {
    const rootReal = await this.rootReal();
    const stats = await lstat(`${rootReal}/.git`).catch(() => null);
    // A `.git` symlink must stay inside; a `.git` FILE (linked worktree, submodule) is git's own
    // pointer to its repository and is left to git.
    if (stats?.isSymbolicLink() === true) await confinePath(rootReal, '.git');
  }

  /** Finds the search engine (ripgrep), so the first `grep`/`glob` does not. */
  async prepare(): Promise<void> {
    await this.searching.engine();
  }
}
