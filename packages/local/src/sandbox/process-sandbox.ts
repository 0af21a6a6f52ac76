import { posix } from 'node:path';

import { CodeError } from '@a3s-lab/code-core';
import type { SandboxOptions, SandboxStatus } from '@a3s-lab/code-core';

import { lstatOf, readdirNames, realpathOf } from '../local-io.js';
import { bwrapArgs } from './bwrap-args.js';
import type { HiddenPath } from './bwrap-args.js';
import { NetworkProxy, RELAY_SOURCE } from './network-proxy.js';
import { protectedMounts } from './protected-mounts.js';
import { probeBubblewrap } from './sandbox-probe.js';
import type { SandboxProbe } from './sandbox-probe.js';
import { resolveSandboxPolicy } from './sandbox-policy.js';
import { WorkspaceListing } from './workspace-listing.js';
import type { SandboxPolicy } from './sandbox-policy.js';

/** `LocalWorkspaceBackendOptions.sandbox`: the session option plus the host's choice of binary. */
export interface LocalSandboxOptions extends SandboxOptions {
  /** Bubblewrap binary; default `bwrap` on PATH, else /usr/bin/bwrap. */
  readonly bwrapPath?: string;
  /**
   * The platform to sandbox on; default `process.platform`. Only Linux has a sandbox (bubblewrap):
   * on `darwin` (Seatbelt is not implemented) `required` throws SANDBOX_UNAVAILABLE naming the
   * platform and `auto` reports `{ active: false, reason }`. Tests set it to check that path.
   */
  readonly platform?: NodeJS.Platform;
}

/** A process to start: executable (through PATH), argv and working directory. */
export interface ProcessSpec {
  readonly file: string;
  readonly args: readonly string[];
  readonly cwd: string;
}

/**
 * The OS boundary of one backend's subprocesses. Built once (the probe of bubblewrap is cached
 * per process); {@link wrap} turns a process into the same process inside bubblewrap.
 *
 * @throws CodeError SANDBOX_UNAVAILABLE (mode `required`, no sandbox can start; `details.reason`),
 *   CONFIG_ERROR for a bad option.
 */
export class ProcessSandbox {
  readonly policy: SandboxPolicy;
  readonly #probe: SandboxProbe | null;
  #proxy: NetworkProxy | undefined;

  constructor(options: LocalSandboxOptions | undefined) {
    const { bwrapPath, platform, ...rest } = options ?? { mode: 'off' as const };
    this.policy = resolveSandboxPolicy(rest);
    this.#probe = this.policy.mode === 'off' ? null : probeBubblewrap(bwrapPath, platform);
    if (this.policy.mode === 'required' && this.#probe?.ok === false) {
      throw new CodeError('SANDBOX_UNAVAILABLE', `the sandbox is required but cannot start: ${this.#probe.reason}`, { details: { reason: this.#probe.reason, kind: 'bubblewrap', platform: platform ?? process.platform } });
    }
  }

  /** True when processes run inside the sandbox. */
  get active(): boolean {
    return this.#probe?.ok === true;
  }

  /** What the sandbox is: `{ active, kind, network, reason? }`. */
  status(): SandboxStatus {
    if (this.#probe === null) return Object.freeze({ active: false, kind: 'none', network: 'full', reason: "sandbox mode is 'off'" });
    if (!this.#probe.ok) return Object.freeze({ active: false, kind: 'none', network: 'full', reason: this.#probe.reason });
    const network = typeof this.policy.network === 'object' ? 'allow-list' : this.policy.network;
    return Object.freeze({ active: true, kind: 'bubblewrap', network });
  }

  /**
   * `spec` as it runs: unchanged when the sandbox is not active, else bubblewrap with the policy's
   * mounts for the workspace `rootReal` (`hooksPaths`: its configured hooks directories;
   * `listing`: the workspace's listings at the call's start, when the caller shares them).
   */
  async wrap(spec: ProcessSpec, rootReal: string, hooksPaths: readonly string[], listing: WorkspaceListing = new WorkspaceListing(rootReal)): Promise<ProcessSpec> {
    const probe = this.#probe;
    if (probe === null || !probe.ok) return spec;
    const [mounts, allowWrite, hidden] = await Promise.all([protectedMounts(listing, hooksPaths), existingReal(this.policy.allowWrite), hiddenPaths(this.policy.denyRead)]);
    const plan = { rootReal, cwd: spec.cwd, allowWrite, protectedMounts: mounts, hidden, shareNetwork: this.policy.network === 'full' };
    const network = this.policy.network;
    if (typeof network !== 'object') return { file: probe.path, args: bwrapArgs(plan, spec.file, spec.args), cwd: spec.cwd };
    // Allow-list: the only way out of the sandbox's empty network namespace is the proxy's socket,
    // reached through a relay on the sandbox's own loopback that runs the command.
    this.#proxy ??= new NetworkProxy(network.allow);
    await this.#proxy.start();
    const proxy = this.#proxy;
    const args = bwrapArgs({ ...plan, extraBinds: [[proxy.directory, proxy.directory]] }, process.execPath, ['-e', RELAY_SOURCE, proxy.socketPath, spec.file, ...spec.args]);
    return { file: probe.path, args, cwd: spec.cwd };
  }

  /** Stops the allow-list proxy, if one runs (a later call starts a new one). */
  close(): void {
    this.#proxy?.close();
    this.#proxy = undefined;
  }
}

/** The real paths of those of `paths` that exist (`/` left out). */
export async function existingReal(paths: readonly string[]): Promise<string[]> {
  const real = await Promise.all(paths.map((path) => realpathOf(path).catch(() => null)));
  return real.filter((path): path is string => path !== null && path !== '/');
}

// Both the literal path and its target: a symlinked `~/.ssh` is hidden where it points. Only the
// paths their parent directory lists are resolved (one `readdir` per parent instead of a failing
// `realpath` for each secret the machine does not have).
export async function hiddenPaths(paths: readonly string[]): Promise<HiddenPath[]> {
  const listings = new Map<string, Promise<Set<string>>>();
  const listed = (path: string): Promise<boolean> => {
    const parent = posix.dirname(path);
    let names = listings.get(parent);
    if (names === undefined) {
      names = readdirNames(parent).then((entries) => new Set(entries), () => new Set<string>());
      listings.set(parent, names);
    }
    return names.then((set) => path === parent || set.has(posix.basename(path)));
  };
  const found = await Promise.all(
    paths.map(async (path): Promise<HiddenPath | null> => {
      if (!(await listed(path))) return null;
      const real = await realpathOf(path).catch(() => null);
      if (real === null || real === '/') return null;
      const stats = await lstatOf(real).catch(() => null);
      return stats === null ? null : { path: real, directory: stats.isDirectory() };
    }),
  );
  const seen = new Set<string>();
  return found.filter((entry): entry is HiddenPath => entry !== null && !seen.has(entry.path) && seen.add(entry.path) !== undefined);
}
