import { execOutputText } from '@a3s-lab/code-core/util';
import { type ToolErrorKind, type ToolResult } from '@a3s-lab/code-core';

/** What the guest receives for one `ctx` call (JSON-encoded before it crosses). */
export type HelperReply =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly error: { readonly message: string; readonly tool?: string; readonly exitCode?: number; readonly errorKind?: ToolErrorKind } };

/** One planned `ctx` call: the tool to invoke, its arguments, and how its result is projected. */
export interface HelperPlan {
  readonly tool: string;
  readonly args: Record<string, unknown>;
  readonly project: (result: ToolResult) => HelperReply;
}

/** Names of the `ctx` methods a script can call. */
export const CTX_HELPERS = ['readFile', 'read', 'grep', 'glob', 'ls', 'bash', 'git', 'tool'] as const;

/** One of {@link CTX_HELPERS}. */
export type CtxHelper = (typeof CTX_HELPERS)[number];

/** Host-side helper names: the public ones plus `readFilePage`, one page of `ctx.readFile`. */
type HostHelper = Exclude<CtxHelper, 'readFile'> | 'readFilePage';

const helperSet: ReadonlySet<string> = new Set([...CTX_HELPERS.filter((name) => name !== 'readFile'), 'readFilePage']);

/** True for a helper name the host serves. */
export function isHostHelper(name: string): name is HostHelper {
  return helperSet.has(name);
}

/**
 * Maps one guest `ctx.<helper>(...params)` call to the tool call it stands for. Returns a
 * message string for arguments that do not fit (the guest gets a TypeError-like failure and no
 * tool runs).
 */
export function planHelperCall(helper: HostHelper, params: readonly unknown[]): HelperPlan | string {
  const [first, second] = params;
  switch (helper) {
    case 'readFilePage': {
      // ctx.readFile: the whole file in one raw `read`; pages only when the kernel had to bound it.
      if (typeof first !== 'string') return 'ctx.readFile(path) needs a string path';
      const page = typeof second === 'number' && Number.isSafeInteger(second) && second >= 0 ? { offset: second, limit: pageLimit(params[2]) } : null;
      return {
        tool: 'read',
        args: { file_path: first, format: 'raw', ...(page ?? {}) },
        project: (result) => (result.exitCode !== 0 ? failedReply(result) : readFilePage(result, first, page)),
      };
    }
    case 'read':
      if (typeof first === 'string') return { tool: 'read', args: { ...options(second), file_path: first }, project: projectToolResult };
      if (isRecord(first)) return { tool: 'read', args: { ...first }, project: projectToolResult };
      return 'ctx.read(path | args) needs a string path or an arguments object';
    case 'grep':
      if (typeof first !== 'string') return 'ctx.grep(pattern, options?) needs a string pattern';
      return { tool: 'grep', args: { ...options(second), pattern: first }, project: projectWith(outputText) };
    case 'glob':
      if (typeof first !== 'string') return 'ctx.glob(pattern, options?) needs a string pattern';
      return { tool: 'glob', args: { ...options(second), pattern: first }, project: projectWith(globPaths) };
    case 'ls':
      if (first !== undefined && first !== null && typeof first !== 'string') return 'ctx.ls(path?) needs a string path';
      return { tool: 'ls', args: { ...options(second), ...(typeof first === 'string' ? { path: first } : {}) }, project: projectWith(outputText) };
    case 'bash':
      if (typeof first !== 'string') return 'ctx.bash(command, options?) needs a string command';
      return { tool: 'bash', args: { ...options(second), command: first }, project: projectWith(bashText) };
    case 'git':
      if (typeof first === 'string') return { tool: 'git', args: { ...options(second), command: first }, project: projectToolResult };
      if (isRecord(first)) return { tool: 'git', args: { ...first }, project: projectToolResult };
      return 'ctx.git(command | args) needs a command string or an arguments object';
    case 'tool':
      if (typeof first !== 'string' || first.length === 0) return 'ctx.tool(name, args) needs a tool name';
      if (second !== undefined && second !== null && !isRecord(second)) return 'ctx.tool(name, args) needs an arguments object';
      return { tool: first, args: isRecord(second) ? { ...second } : {}, project: projectToolResult };
  }
}

function options(value: unknown): Record<string, unknown> {
  return isRecord(value) ? value : {};
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * `ctx.tool`, `ctx.read` and `ctx.git` return the result object and never throw on a failed
 * call: the script sees `exitCode` and decides (the original package's contract).
 */
function projectToolResult(result: ToolResult): HelperReply {
  return {
    ok: true,
    value: { name: result.name, output: result.output, exitCode: result.exitCode, metadata: result.metadata ?? {}, ...(result.errorKind === undefined ? {} : { errorKind: result.errorKind }) },
  };
}

/** A failed call as the guest sees it: a thrown Error carrying the tool output and error kind. */
function failedReply(result: ToolResult): HelperReply {
  return {
    ok: false,
    error: {
      message: result.output.length > 0 ? result.output : `tool '${result.name}' failed with exit code ${result.exitCode}`,
      tool: result.name,
      exitCode: result.exitCode,
      ...(result.errorKind === undefined ? {} : { errorKind: result.errorKind }),
    },
  };
}

/** The typed helpers turn a failed call into a thrown guest Error carrying the tool output. */
function projectWith(extract: (result: ToolResult) => unknown): (result: ToolResult) => HelperReply {
  return (result) => (result.exitCode !== 0 ? failedReply(result) : { ok: true, value: extract(result) });
}

function outputText(result: ToolResult): string {
  return result.output;
}

/** `ctx.bash` gives the command's output (stdout then stderr), like `session.bash`. */
function bashText(result: ToolResult): string {
  return execOutputText(result.output);
}

/** Most lines one raw `read` page may ask for (the `read` tool's `limit` maximum). */
const READ_FILE_PAGE_LINES = 2000;

/** Share of the kernel's inline bound a page aims at, leaving room for lines longer than average. */
const PAGE_FILL = 0.75;

function pageLimit(value: unknown): number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 1 ? Math.min(value, READ_FILE_PAGE_LINES) : READ_FILE_PAGE_LINES;
}

/** What the guest's `ctx.readFile` loop gets for one raw `read`. */
type ReadFilePage = { readonly text: string; readonly next: number | null } | { readonly bounded: true; readonly pageLines: number };

/**
 * Projects one successful raw `read` for `ctx.readFile`. Raw text is exact (no line numbers,
 * line endings kept), so an unbounded result IS the text. When the kernel bounded it
 * (`metadata.output_bounds`: the inline text is head+tail only, and a program cannot fetch
 * artifacts), the guest is told to read pages of `pageLines` lines instead, sized from the bytes
 * seen so each page fits the bound; a page that still does not fit shrinks again, down to a
 * single line too long to return, which fails the call.
 */
function readFilePage(result: ToolResult, path: string, page: { readonly offset: number; readonly limit: number } | null): HelperReply {
  const metadata = result.metadata ?? {};
  const bounds = metadata['output_bounds'] as { total_bytes?: unknown; max_inline_bytes?: unknown } | undefined;
  if (bounds === undefined) {
    const next = metadata['next_offset'];
    return { ok: true, value: { text: result.output, next: typeof next === 'number' ? next : null } satisfies ReadFilePage };
  }
  const totalBytes = typeof bounds.total_bytes === 'number' && bounds.total_bytes > 0 ? bounds.total_bytes : 1;
  const inlineBytes = typeof bounds.max_inline_bytes === 'number' ? bounds.max_inline_bytes : 0;
  const totalLines = typeof metadata['total_lines'] === 'number' ? metadata['total_lines'] : READ_FILE_PAGE_LINES;
  if (page !== null && page.limit <= 1) {
    const message = `line ${page.offset + 1} of ${path} is ${totalBytes} bytes, over the ${inlineBytes} byte inline output bound: ctx.readFile cannot return it whole (ctx.read gives a cut view)`;
    return { ok: false, error: { message, tool: 'read', exitCode: 1, errorKind: { type: 'unsupported', message } } };
  }
  const lines = page === null ? totalLines : page.limit;
  const fitting = Math.floor((lines * inlineBytes * PAGE_FILL) / totalBytes);
  const ceiling = page === null ? READ_FILE_PAGE_LINES : page.limit - 1;
  return { ok: true, value: { bounded: true, pageLines: Math.max(1, Math.min(fitting, ceiling)) } satisfies ReadFilePage };
}

const GLOB_METADATA_KEYS = ['files', 'paths', 'matches'] as const;

/**
 * The paths behind a `glob` result: a structured list when the tool gives one; otherwise the
 * first `metadata.count` lines (the lines after them are continuation notes and warnings).
 */
export function globPaths(result: ToolResult): string[] {
  const metadata = result.metadata ?? {};
  for (const key of GLOB_METADATA_KEYS) {
    const value = metadata[key];
    if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return [...(value as string[])];
  }
  const count = metadata['count'];
  if (typeof count === 'number') return count === 0 ? [] : result.output.split('\n').slice(0, count);
  return result.output
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.length > 0);
}
