import { accessSync, constants, statSync } from 'node:fs';
import type { AgentConfig } from '@a3s-lab/code-config';
import { CodeError } from '@a3s-lab/code-core';
import type { AgentWarning } from './agent-options.js';
import { s3WorkspaceFromConfig } from './s3-from-config.js';
import type { BoundWorkspace, ResolvedOptions } from './session-recipe.js';
import { sandboxedLocalBackend, sandboxWarning, sessionSandboxStatus } from './session-sandbox.js';
import { overlaidBackend } from './workspace-overlay.js';

/**
 * The workspace a top-level session binds: the host's `workspaceBackend`, else an S3 backend for
 * an `s3://` workspace (from the config), else a local directory (which must exist and be
 * readable), sandboxed as `resolved.sandbox` asks. A sandbox that could not start is reported to
 * `onWarning` (default `process.emitWarning`); the host's overlay goes over the backend.
 */
export function bindSessionWorkspace(config: AgentConfig, workspace: string, resolved: ResolvedOptions, onWarning: ((warning: AgentWarning) => void) | undefined): BoundWorkspace {
  let backend = resolved.workspaceBackend;
  const owns = backend === undefined;
  if (backend === undefined && workspace.startsWith('s3://')) backend = s3WorkspaceFromConfig(config, workspace);
  if (backend === undefined) {
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(workspace)) {
      throw new CodeError('SESSION_CONFIGURATION_ERROR', `workspace '${workspace}' is not a local directory: pass a workspaceBackend for it`, { details: { field: 'workspaceBackend' } });
    }
    requireDirectory(workspace);
    backend = sandboxedLocalBackend(workspace, resolved.sandbox);
  }
  const sandboxStatus = sessionSandboxStatus(backend, resolved.sandbox, owns);
  const degraded = sandboxWarning(sandboxStatus, resolved.sandbox, backend, owns || resolved.sandbox !== undefined);
  if (degraded !== null) (onWarning ?? ((w) => process.emitWarning(w.message, { code: 'A3S_SANDBOX_UNAVAILABLE' })))(degraded);
  // What the tools call: the host's overlay over the backend, confinement kept in front.
  return { backend, workspace: resolved.workspaceOverlay === undefined ? backend : overlaidBackend(backend, resolved.workspaceOverlay), owns, sandboxStatus };
}

/** A local workspace must be an existing, readable directory: SESSION_INITIALIZATION_ERROR at once otherwise. */
function requireDirectory(workspace: string): void {
  let problem: string | null = null;
  try {
    if (!statSync(workspace).isDirectory()) problem = 'is not a directory';
    else accessSync(workspace, constants.R_OK | constants.X_OK);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    problem = problem ?? (code === 'ENOENT' || code === 'ENOTDIR' ? 'does not exist' : 'is not readable');
  }
  if (problem !== null) throw new CodeError('SESSION_INITIALIZATION_ERROR', `workspace '${workspace}' ${problem}`, { details: { field: 'workspace', workspace } });
}
