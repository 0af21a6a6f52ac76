import { resolveToolCapabilities } from '../../tools/tool-capabilities.js';
import type { ToolCapabilities } from '../../tools/tool-capabilities.js';
import { DEFAULT_TOOL_CAPABILITIES } from '../../tools/tool-capabilities.js';
import type { AnyTool, ToolRegistry } from '../../tools/tool-registry.js';
import type { PermissionTarget } from '../../tools/tool.js';
import type { InvocationCall, ResolvedTarget } from '../invocation-call.js';
import type { KernelDeps } from '../kernel-deps.js';

const NONE: PermissionTarget = Object.freeze({ kind: 'none' });
// Shared by every call of a tool without a permission target: nothing to allocate per call.
const NONE_RESOLVED: ResolvedTarget = Object.freeze({ target: NONE, unresolved: Object.freeze([]) });

/**
 * The call's permission target with every path resolved through the workspace's confinement
 * function (deny rules and hook path patterns match the RESOLVED path). A path that fails
 * resolution is kept literally in `unresolved`; the permission stage denies such a call.
 * Cached on the call until its arguments change. Synchronous unless there are paths to resolve.
 */
export function resolvePermissionTarget(deps: KernelDeps, call: InvocationCall): ResolvedTarget | Promise<ResolvedTarget> {
  if (call.target !== null) return call.target;
  const tool = call.tool!;
  if (tool.permissionTarget === undefined) {
    call.target = NONE_RESOLVED;
    return NONE_RESOLVED;
  }
  const raw = tool.permissionTarget(call.args);
  if (raw.kind !== 'paths') {
    call.target = { target: raw, unresolved: [] };
    return call.target;
  }
  return resolvePaths(deps, call, tool, raw.paths);
}

async function resolvePaths(deps: KernelDeps, call: InvocationCall, tool: AnyTool, literal: readonly string[]): Promise<ResolvedTarget> {
  const forWrite = !call.capabilities(() => capabilitiesOf(tool, call.args)).readOnly;
  const unresolved: { path: string; reason: string }[] = [];
  const paths = await Promise.all(
    literal.map(async (path) => {
      try {
        return await deps.workspace.resolvePath({ path, forWrite });
      } catch (error) {
        unresolved.push({ path, reason: error instanceof Error ? error.message : String(error) });
        return path;
      }
    }),
  );
  const resolved: ResolvedTarget = { target: { kind: 'paths', paths }, unresolved };
  call.target = resolved;
  return resolved;
}

/** A tool's capabilities for `args`; a tool whose `capabilities` throws gets the conservative default. */
export function capabilitiesOf(tool: AnyTool, args: unknown): ToolCapabilities {
  try {
    return resolveToolCapabilities(tool.capabilities?.(args));
  } catch {
    return resolveToolCapabilities(undefined);
  }
}

/** Capabilities of a call of `toolName` with `args`; the conservative default for a tool not registered. */
export function capabilitiesByName(registry: ToolRegistry, toolName: string, args: unknown): ToolCapabilities {
  const tool = registry.get(toolName);
  return tool === null ? DEFAULT_TOOL_CAPABILITIES : capabilitiesOf(tool, args);
}
