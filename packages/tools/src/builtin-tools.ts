import type { AnyTool, WorkspaceCapabilities } from '@a3s-lab/code-core';
import { registerPrecompiledArgumentValidators } from '@a3s-lab/code-core/kernel';
import { createBashTool } from './bash-tool.js';
import { createBatchTool } from './batch-tool.js';
import { createEditTool } from './edit-tool.js';
import { createGitTool } from './git-tool.js';
import { createGlobTool } from './glob-tool.js';
import { createGrepTool } from './grep-tool.js';
import { createLsTool } from './ls-tool.js';
import { createPatchTool } from './patch-tool.js';
import { createReadTool } from './read-tool.js';
import { createWebFetchTool } from './web-fetch-tool.js';
import { createWebSearchTool } from './web-search-tool.js';
import { createWriteTool } from './write-tool.js';

/** Names of the built-in tools, in the order {@link createBuiltinTools} returns them. */
export const BUILTIN_TOOL_NAMES = ['read', 'write', 'edit', 'patch', 'ls', 'glob', 'grep', 'bash', 'git', 'batch', 'web_fetch', 'web_search'] as const;

/** A built-in tool name. */
export type BuiltinToolName = (typeof BUILTIN_TOOL_NAMES)[number];

/** Options of {@link createBuiltinTools}. */
export interface BuiltinToolsOptions {
  /** Only these tools (in the stable order). Default: all of them. */
  readonly include?: readonly BuiltinToolName[];
  /** Leave these tools out. Default: none. */
  readonly exclude?: readonly BuiltinToolName[];
}

const FACTORIES: Readonly<Record<BuiltinToolName, () => AnyTool>> = {
  read: createReadTool,
  write: createWriteTool,
  edit: createEditTool,
  patch: createPatchTool,
  ls: createLsTool,
  glob: createGlobTool,
  grep: createGrepTool,
  bash: createBashTool,
  git: createGitTool,
  batch: createBatchTool,
  web_fetch: createWebFetchTool,
  web_search: createWebSearchTool,
};

let validatorsRegistered = false;

/**
 * The built-in tools in a stable order (`read, write, edit, patch, ls, glob, grep, bash, git,
 * batch, web_fetch, web_search`), freshly created. Pass the result through {@link selectToolsForWorkspace} to drop
 * the ones a backend cannot serve.
 */
export function createBuiltinTools(options: BuiltinToolsOptions = {}): AnyTool[] {
  if (!validatorsRegistered) {
    // The kernel validates these tools' arguments (and those of the other tools of this package)
    // with validators compiled at development time: no Ajv load, no schema compile. Their module
    // (~170 KB) is its own chunk, loaded by the first validation, not at import or before the
    // first model request.
    validatorsRegistered = true;
    registerPrecompiledArgumentValidators(() => import('./builtin-argument-validators.generated.js').then((module) => module.BUILTIN_ARGUMENT_VALIDATORS));
  }
  const include = options.include === undefined ? null : new Set<string>(options.include);
  const exclude = new Set<string>(options.exclude ?? []);
  return BUILTIN_TOOL_NAMES.filter((name) => (include === null || include.has(name)) && !exclude.has(name)).map((name) => FACTORIES[name]());
}

/** The tools whose `requires` are all met by `capabilities`, order kept (an S3 workspace drops bash and git). */
export function selectToolsForWorkspace<T extends Pick<AnyTool, 'requires'>>(tools: readonly T[], capabilities: WorkspaceCapabilities): T[] {
  return tools.filter((tool) => (tool.requires ?? []).every((capability) => capabilities[capability]));
}
