import type { BackendCallOptions, ExecOptions, ExecResult } from '@a3s-lab/code-core';
import { abortError } from '@a3s-lab/code-core/util';

import type { HooksPathsReader } from './hooks-paths.js';
import { DEFAULT_MAX_OUTPUT_BYTES, runProcess } from './process-runner.js';
import type { RunProcessOptions } from './process-runner.js';
import { signalProcessGroup, unregisterProcessGroup } from './process-registry.js';
import type { ProcessSandbox } from './sandbox/process-sandbox.js';
import { guardAbsentProtectedPaths } from './sandbox/protected-creation.js';
import { WorkspaceListing } from './sandbox/workspace-listing.js';
import type { SearchResultCache } from './search/search-result-cache.js';

/** A process of a workspace call: executable, argv, confined cwd, the complete environment and its deadline. */
export type WorkspaceProcessSpec = Pick<RunProcessOptions, 'file' | 'args' | 'cwd' | 'env' | 'timeoutMs'>;

/** What a call adds to its process: capture budget, cancellation, live output. */
export type WorkspaceProcessCall = BackendCallOptions & { readonly maxOutputBytes?: number; readonly onOutput?: ExecOptions['onOutput'] };

/** What {@link WorkspaceProcesses} needs of its backend. */
export interface WorkspaceProcessesDeps {
  readonly sandbox: ProcessSandbox;
  readonly hooksPaths: HooksPathsReader;
  readonly rootReal: () => Promise<string>;
  readonly searchCache: SearchResultCache | undefined;
  readonly maxOutputBytes?: number | undefined;
  readonly killGraceMs?: number | undefined;
  readonly drainGraceMs?: number | undefined;
}

/**
 * The processes of one local workspace (`exec`, `git`): each in its own process group (see
 * `runProcess`), inside the OS sandbox when it is active (the call's mounts from one listing of
 * the workspace; what the command created at absent protected paths removed after it), the
 * search results kept before and after it dropped. Owns the live groups, which {@link close} kills.
 */
export class WorkspaceProcesses {
  readonly #deps: WorkspaceProcessesDeps;
  readonly #groups = new Set<number>();
  // Bumped by close(): a process whose spawn was in flight then (its pid comes from the spawn
  // helper a moment later) is killed as soon as it exists, like the groups close() found.
  #closeEpoch = 0;

  constructor(deps: WorkspaceProcessesDeps) {
    this.#deps = deps;
  }

  /**
   * Runs `spec` for `call`. A cancelled run rejects with an AbortError whose `result` holds the
   * partial {@link ExecResult} (`cancelled: true`).
   */
  async run(spec: WorkspaceProcessSpec, call: WorkspaceProcessCall): Promise<ExecResult> {
    // A command may write anywhere in the workspace: kept search results are stale from now on
    // (and again when it ends, for a search that ran while it did).
    this.#deps.searchCache?.clear();
    try {
      return await this.#run(spec, call);
    } finally {
      this.#deps.searchCache?.clear();
    }
  }

  /** Kills every live process group started here. Idempotent. */
  close(): void {
    this.#closeEpoch += 1;
    for (const pgid of this.#groups) {
      signalProcessGroup(pgid, 'SIGKILL');
      unregisterProcessGroup(pgid);
    }
    this.#groups.clear();
  }

  async #run(spec: WorkspaceProcessSpec, call: WorkspaceProcessCall): Promise<ExecResult> {
    const { sandbox, hooksPaths } = this.#deps;
    const rootReal = sandbox.active ? await this.#deps.rootReal() : '';
    // One set of listings of the workspace for the call's checks (mounts, absent paths, hooks).
    const listing = new WorkspaceListing(rootReal);
    // Protected paths absent now are not mounted read-only: what the command creates of them goes.
    const [wrapped, revert] = sandbox.active
      ? await Promise.all([
          // No `.git` at all: no `.git/config` to read `core.hooksPath` from.
          listing.entry('.git').then(async (git) => sandbox.wrap(spec, rootReal, git === null ? [] : await hooksPaths.read(rootReal), listing)),
          guardAbsentProtectedPaths(listing),
        ])
      : [spec, null];
    const epoch = this.#closeEpoch;
    const ran = await runProcess({
      ...spec,
      ...wrapped,
      maxOutputBytes: call.maxOutputBytes ?? this.#deps.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES,
      groups: this.#groups,
      // bubblewrap runs every command as the init of a new pid namespace (`--unshare-pid`).
      ownPidNamespace: sandbox.active,
      onSpawn: (pgid) => {
        if (epoch !== this.#closeEpoch) signalProcessGroup(pgid, 'SIGKILL');
      },
      ...(this.#deps.killGraceMs === undefined ? {} : { killGraceMs: this.#deps.killGraceMs }),
      ...(this.#deps.drainGraceMs === undefined ? {} : { drainGraceMs: this.#deps.drainGraceMs }),
      ...(call.abortSignal === undefined ? {} : { abortSignal: call.abortSignal }),
      ...(call.onOutput === undefined ? {} : { onOutput: call.onOutput }),
    });
    const removed = revert === null ? [] : await revert();
    const result = removed.length === 0 ? ran : { ...ran, stderr: `${ran.stderr}${ran.stderr === '' || ran.stderr.endsWith('\n') ? '' : '\n'}sandbox: removed what the command created at protected paths: ${removed.join(', ')}\n` };
    if (result.cancelled) throw Object.assign(abortError(call.abortSignal), { result });
    return result;
  }
}
