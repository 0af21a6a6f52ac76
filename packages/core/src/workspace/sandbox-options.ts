/**
 * Network reach of sandboxed processes: `none` (a private network namespace with nothing but its
 * own loopback: the host's 127.0.0.1 is not reachable), `full` (the host's network), or an
 * allow-list of `host:port` / `host` entries reached through a filtering proxy.
 */
export type SandboxNetwork = 'none' | 'full' | { readonly allow: readonly string[] };

/**
 * Session option `sandbox` (host-only; ACL block `sandbox { ... }`): the OS boundary every
 * subprocess the runtime starts runs in (`bash`, `verifyCommands`, the `git` tool's processes).
 * No tool argument, hook patch or model output can change it.
 */
export interface SandboxOptions {
  /**
   * `required`: session creation fails with `SANDBOX_UNAVAILABLE` when no sandbox can start;
   * `auto` (default): runs unsandboxed with a host-visible warning and status when none can;
   * `off`: no sandbox.
   */
  readonly mode?: 'required' | 'auto' | 'off';
  /**
   * Default `none` for processes. Set by the host, it is also a ceiling over the web tools
   * (`web_fetch`, `web_search`): `none` refuses every fetch, `{ allow }` only the listed hosts,
   * `full` leaves them their own policy (`webFetch.allowHosts`, the address guard). Unset, the web
   * tools keep their own policy.
   */
  readonly network?: SandboxNetwork;
  /** Absolute paths (or `~/...`) writable inside the sandbox besides the workspace. */
  readonly allowWrite?: readonly string[];
  /** Absolute paths (or `~/...`) hidden inside the sandbox, added to the default deny-read list. */
  readonly denyRead?: readonly string[];
  /**
   * Opt-in: `bash` calls that will run sandboxed skip confirmation (an `ask` default becomes
   * allow for `bash`); deny and ask rules still apply first. Default false.
   */
  readonly autoAllowBash?: boolean;
}

/** What the sandbox of a session's subprocesses is (`session.sandboxStatus()`). */
export interface SandboxStatus {
  /** True when subprocesses run inside the sandbox. */
  readonly active: boolean;
  readonly kind: 'bubblewrap' | 'seatbelt' | 'none';
  /** The network policy in force (`full` when the sandbox is not active). */
  readonly network: 'none' | 'full' | 'allow-list';
  /** Why the sandbox is not active (`mode: 'off'`, bubblewrap missing or failing...). */
  readonly reason?: string;
}
