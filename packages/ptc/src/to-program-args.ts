import type { ProgramRunLimits } from './program-limits.js';
import type { ProgramToolArgs } from './program-tool.js';

/** The camelCase options of `session.program(...)` (node-sdk.md). */
export interface ProgramOptions {
  /** Inline ES module source; exclusive with `path`. */
  readonly source?: string;
  /** Workspace-relative `.js` / `.mjs` script; exclusive with `source`. */
  readonly path?: string;
  /** JSON value passed to `run` as `inputs`. Default `{}`. */
  readonly inputs?: unknown;
  /** Tools the script may call. Default: every session tool except the never-callable ones. */
  readonly allowedTools?: readonly string[];
  /** Per-run limits; missing fields take the defaults. */
  readonly limits?: Partial<ProgramRunLimits>;
}

/**
 * Converts `session.program(options)` to the arguments of `session.tool('program', ...)`.
 * Absent options stay absent (so the tool's defaults apply).
 */
export function toProgramArgs(options: ProgramOptions): ProgramToolArgs {
  return {
    type: 'script',
    language: 'javascript',
    ...(options.source === undefined ? {} : { source: options.source }),
    ...(options.path === undefined ? {} : { path: options.path }),
    ...(options.inputs === undefined ? {} : { inputs: options.inputs }),
    ...(options.allowedTools === undefined ? {} : { allowed_tools: [...options.allowedTools] }),
    ...(options.limits === undefined ? {} : { limits: { ...options.limits } }),
  };
}
