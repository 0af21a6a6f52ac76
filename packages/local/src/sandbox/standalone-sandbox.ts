import { CodeError } from '@a3s-lab/code-core';

import { isAbsolute, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

import { bwrapArgs, isUnder } from './bwrap-args.js';
import { existingReal, hiddenPaths } from './process-sandbox.js';
import { probeBubblewrap } from './sandbox-probe.js';
import { resolveSandboxPolicy } from './sandbox-policy.js';

/**
 * The sandbox settings of a standalone program (an MCP stdio server's `sandbox`): the same
 * fields as `McpServerSandbox` of `@a3s-lab/code-mcp`, which this package does not import.
 */
export interface StandaloneSandboxOptions {
  /** Default `none`. */
  readonly network?: 'none' | 'full';
  /** Absolute paths (or `~/...`) the program may write. Default none. */
  readonly allowWrite?: readonly string[];
  /** Paths hidden from the program besides the default deny-read list. */
  readonly denyRead?: readonly string[];
}

/** A long-running program to start (an MCP stdio server): executable, argv, working directory. */
export interface StandaloneCommand {
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd?: string;
}

/**
 * `spec` as bubblewrap runs it, for a program that belongs to no workspace (an MCP stdio server
 * the host asked to sandbox): the system read-only, nothing writable but a private `/tmp` and
 * `options.allowWrite`, the default deny-read list plus `options.denyRead` hidden, new
 * user/pid/ipc/uts namespaces, no network unless `network: 'full'`, killed with its parent.
 *
 * @throws CodeError SANDBOX_UNAVAILABLE when bubblewrap cannot start (the host asked for it: no
 *   fallback), CONFIG_ERROR for a bad option.
 */
export async function sandboxedCommand(spec: StandaloneCommand, options: StandaloneSandboxOptions = {}, bwrapPath?: string): Promise<StandaloneCommand> {
  const { network, allowWrite, denyRead, ...unknown } = options;
  const extra = Object.keys(unknown)[0];
  if (extra !== undefined) throw new CodeError('CONFIG_ERROR', `sandbox.${extra} is not an MCP server sandbox option (network, allowWrite, denyRead)`, { details: { field: `sandbox.${extra}` } });
  if (network !== undefined && network !== 'none' && network !== 'full') {
    throw new CodeError('CONFIG_ERROR', "an MCP server's sandbox.network must be 'none' or 'full'", { details: { field: 'sandbox.network' } });
  }
  const policy = resolveSandboxPolicy({ mode: 'required', ...(network === undefined ? {} : { network }), ...(allowWrite === undefined ? {} : { allowWrite }), ...(denyRead === undefined ? {} : { denyRead }) });
  const probe = probeBubblewrap(bwrapPath);
  if (!probe.ok) throw new CodeError('SANDBOX_UNAVAILABLE', `the MCP server cannot be sandboxed: ${probe.reason}`, { details: { reason: probe.reason, kind: 'bubblewrap' } });
  const [writable, hidden] = await Promise.all([existingReal(policy.allowWrite), hiddenPaths(policy.denyRead)]);
  const cwd = spec.cwd ?? process.cwd();
  const readOnlyBinds = await programTreesUnderTmp(cwd, spec);
  const args = bwrapArgs({ cwd, allowWrite: writable, protectedMounts: [], hidden, shareNetwork: policy.network === 'full', readOnlyBinds }, spec.command, spec.args);
  return { command: probe.path, args, cwd };
}

/**
 * The trees under `/tmp` that the program needs to start, which the sandbox's private `/tmp`
 * would hide: for its working directory, its command and every absolute path (or `file:` URL)
 * among its arguments, the top-level directory below `/tmp` that holds it (a checkout's
 * `node_modules` sits beside the script it runs), bound back read-only. `/tmp` itself stays private.
 */
async function programTreesUnderTmp(cwd: string, spec: StandaloneCommand): Promise<string[]> {
  const paths = [cwd, spec.command, ...spec.args].map((value) => (value.startsWith('file:') ? safeFileUrlPath(value) : value)).filter((value): value is string => value !== undefined && isAbsolute(value));
  const trees = new Set<string>();
  for (const path of paths) {
    const real = (await existingReal([path]))[0] ?? path;
    const [first] = relative('/tmp', real).split(sep);
    if (first === undefined || first === '' || first.startsWith('..') || !isUnder(real, '/tmp')) continue;
    trees.add(join('/tmp', first));
  }
  return existingReal([...trees]);
}

function safeFileUrlPath(url: string): string | undefined {
  try {
    return fileURLToPath(url);
  } catch {
    return undefined;
  }
}
