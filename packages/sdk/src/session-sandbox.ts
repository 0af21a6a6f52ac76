import { CodeError } from '@a3s-lab/code-core';
import type { McpServerConfig } from './mcp-types.js';
import type { SandboxOptions, SandboxStatus, WorkspaceBackend } from '@a3s-lab/code-core';
import { LocalWorkspaceBackend, sandboxedCommand } from '@a3s-lab/code-local';

import { innerBackend } from './workspace-overlay.js';

/** What `onWarning` receives when a session runs its processes without the sandbox it asked for (`mode: 'auto'`). */
export interface SandboxUnavailableWarning {
  readonly kind: 'sandbox_unavailable';
  readonly message: string;
  /** Why no sandbox could start (bubblewrap missing, user namespaces refused...). */
  readonly reason: string;
  readonly workspace: string;
}

/**
 * The local backend of a session the SDK opens: its processes run in the session's sandbox
 * (default `{ mode: 'auto' }`).
 *
 * @throws CodeError SANDBOX_UNAVAILABLE (`mode: 'required'`, no sandbox can start),
 *   SESSION_CONFIGURATION_ERROR for a bad `sandbox` value (naming the field).
 */
export function sandboxedLocalBackend(workspace: string, sandbox: SandboxOptions | undefined): LocalWorkspaceBackend {
  try {
    return new LocalWorkspaceBackend(workspace, { sandbox: sandbox ?? { mode: 'auto' } });
  } catch (error) {
    if (CodeError.isInstance(error) && error.code === 'CONFIG_ERROR') {
      throw new CodeError('SESSION_CONFIGURATION_ERROR', error.message, { details: error.details, cause: error });
    }
    throw error;
  }
}

/**
 * The sandbox status of a session on `backend`. For a backend the host passed, the backend's
 * own sandbox governs (set it with `LocalWorkspaceBackendOptions.sandbox`); the session's
 * `sandbox` option is checked against it, never silently ignored.
 *
 * @throws CodeError SANDBOX_UNAVAILABLE (`mode: 'required'` and the backend's processes are not
 *   sandboxed), SESSION_CONFIGURATION_ERROR (settings the passed backend does not apply).
 */
export function sessionSandboxStatus(backend: WorkspaceBackend, requested: SandboxOptions | undefined, createdHere: boolean): SandboxStatus {
  // An overlaid backend (workspaceOverlay) runs its processes in the one it wraps.
  const base = innerBackend(backend);
  const status: SandboxStatus =
    base instanceof LocalWorkspaceBackend
      ? base.sandboxStatus()
      : backend.capabilities.exec || backend.capabilities.git
        ? { active: false, kind: 'none', network: 'full', reason: `the '${backend.kind}' workspace backend runs its processes itself: only the local backend sandboxes them` }
        : { active: false, kind: 'none', network: 'none', reason: `the '${backend.kind}' workspace backend starts no processes` };
  if (createdHere || requested === undefined) return status;
  const runsProcesses = backend.capabilities.exec || backend.capabilities.git;
  if (requested.mode === 'required' && runsProcesses && !status.active) {
    throw new CodeError('SANDBOX_UNAVAILABLE', `the sandbox is required but the workspace backend's processes are not sandboxed: ${status.reason ?? 'unknown reason'}`, {
      details: { reason: status.reason ?? 'unknown', kind: status.kind },
    });
  }
  for (const field of ['allowWrite', 'denyRead', 'autoAllowBash'] as const) {
    if (requested[field] !== undefined && runsProcesses) {
      throw configurationError(`sandbox.${field}`, `sandbox.${field} cannot apply to a workspace backend passed by the host: set it in the backend's own sandbox options`);
    }
  }
  const network = requested.network === undefined ? undefined : typeof requested.network === 'object' ? 'allow-list' : requested.network;
  if (network !== undefined && status.active && network !== status.network) {
    throw configurationError('sandbox.network', `sandbox.network '${network}' differs from the passed workspace backend's ('${status.network}'): set it in the backend's own sandbox options`);
  }
  return status;
}

/**
 * The warning of a session whose sandbox (`mode: 'auto'`) could not start, or null. `applies`:
 * the session asked for one (the SDK built its backend, or the host set `sandbox`).
 */
export function sandboxWarning(status: SandboxStatus, requested: SandboxOptions | undefined, backend: WorkspaceBackend, applies: boolean): SandboxUnavailableWarning | null {
  const runsProcesses = backend.capabilities.exec || backend.capabilities.git;
  if (!applies || !runsProcesses || status.active || (requested?.mode ?? 'auto') !== 'auto') return null;
  const reason = status.reason ?? 'unknown reason';
  return { kind: 'sandbox_unavailable', message: `the sandbox could not start; processes in '${backend.root}' run unsandboxed: ${reason}`, reason, workspace: backend.root };
}

function configurationError(field: string, message: string): CodeError {
  return new CodeError('SESSION_CONFIGURATION_ERROR', message, { details: { field } });
}

const MODE_STRICTNESS = { off: 0, auto: 1, required: 2 } as const;

/**
 * An agent directory's `sandbox` block over the host's, strictest-wins (loading a directory
 * never widens authority): the stricter mode (unset = `auto`), the narrower network (`none` <
 * allow-list < `full`; two allow-lists intersect; unset stays unset against `full`), the host's `allowWrite` only, `denyRead` lists
 * unioned, `autoAllowBash` only when both set it.
 */
export function strictestSandbox(host: SandboxOptions | undefined, overlay: SandboxOptions | undefined): SandboxOptions | undefined {
  if (overlay === undefined) return host;
  const hostMode = host?.mode ?? 'auto';
  const overlayMode = overlay.mode ?? 'auto';
  const mode = MODE_STRICTNESS[overlayMode] > MODE_STRICTNESS[hostMode] ? overlayMode : hostMode;
  const denyRead = [...new Set([...(host?.denyRead ?? []), ...(overlay.denyRead ?? [])])];
  // The web tools follow `sandbox.network` only when it is set (docs/decisions/sandbox.md): unset
  // on the host's side stays unset unless the directory narrows it (processes get `none` either way).
  const unset = host?.network === undefined && (overlay.network === undefined || overlay.network === 'full');
  const network = unset ? undefined : narrowerNetwork(host?.network ?? 'none', overlay.network ?? 'none');
  return {
    mode,
    ...(network === undefined ? {} : { network }),
    ...(host?.allowWrite === undefined ? {} : { allowWrite: host.allowWrite }),
    ...(denyRead.length === 0 ? {} : { denyRead }),
    ...(host?.autoAllowBash === true && overlay.autoAllowBash === true ? { autoAllowBash: true } : {}),
  };
}

function narrowerNetwork(a: NonNullable<SandboxOptions['network']>, b: NonNullable<SandboxOptions['network']>): NonNullable<SandboxOptions['network']> {
  if (a === 'none' || b === 'none') return 'none';
  if (a === 'full') return b;
  if (b === 'full') return a;
  const allow = a.allow.filter((entry) => b.allow.some((other) => other.toLowerCase() === entry.toLowerCase()));
  return allow.length === 0 ? 'none' : { allow };
}

/**
 * `config` as the MCP bridge starts it: a stdio server whose transport asks for `sandbox` runs
 * inside bubblewrap (see `sandboxedCommand`); the `sandbox` key never reaches the bridge.
 *
 * @throws CodeError SANDBOX_UNAVAILABLE when the sandbox cannot start, CONFIG_ERROR for a bad value.
 */
export async function sandboxMcpTransport(config: McpServerConfig): Promise<McpServerConfig> {
  const transport = (config as { transport?: unknown } | null)?.transport as McpServerConfig['transport'] | undefined;
  if (transport?.type !== 'stdio' || !('sandbox' in transport)) return config;
  const { sandbox, ...plain } = transport;
  if (sandbox === false || sandbox === undefined) return { ...config, transport: plain };
  if (sandbox !== true && (typeof sandbox !== 'object' || sandbox === null || Array.isArray(sandbox))) {
    throw new CodeError('CONFIG_ERROR', `MCP server '${config.name}': transport.sandbox must be true, false or { network, allowWrite, denyRead }`, { details: { field: 'transport.sandbox', server: config.name } });
  }
  const wrapped = await sandboxedCommand({ command: plain.command, args: plain.args ?? [], ...(plain.cwd === undefined ? {} : { cwd: plain.cwd }) }, sandbox === true ? {} : sandbox);
  return { ...config, transport: { type: 'stdio', command: wrapped.command, args: [...wrapped.args], ...(wrapped.cwd === undefined ? {} : { cwd: wrapped.cwd }) } };
}
