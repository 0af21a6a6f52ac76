import type { ToolErrorKind, ToolResult } from '@a3s-lab/code-core';

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
    case 'readFilePage':
      // ctx.readFile pages through the file (each page is one governed `read` call).
      if (typeof first !== 'string') return 'ctx.readFile(path) needs a string path';
      return {
        tool: 'read',
        args: { file_path: first, ...(typeof second === 'number' && second > 0 ? { offset: second } : {}) },
        project: projectWith((result) => ({ text: readText(result), next: nextOffset(result) })),
      };
    case 'read':
      if (typeof first === 'string') return { tool: 'read', args: { ...options(second), file_path: first }, project: projectWith(outputText) };
      if (isRecord(first)) return { tool: 'read', args: { ...first }, project: projectWith(outputText) };
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
      return { tool: 'bash', args: { ...options(second), command: first }, project: projectWith(outputText) };
    case 'git':
      if (typeof first === 'string') return { tool: 'git', args: { ...options(second), command: first }, project: projectWith(outputText) };
      if (isRecord(first)) return { tool: 'git', args: { ...first }, project: projectWith(outputText) };
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

/** `ctx.tool` never throws on a failed call: the script sees exitCode and decides. */
function projectToolResult(result: ToolResult): HelperReply {
  return {
    ok: true,
    value: { name: result.name, output: result.output, exitCode: result.exitCode, metadata: result.metadata ?? {}, ...(result.errorKind === undefined ? {} : { errorKind: result.errorKind }) },
  };
}

/** The typed helpers turn a failed call into a thrown guest Error carrying the tool output. */
function projectWith(extract: (result: ToolResult) => unknown): (result: ToolResult) => HelperReply {
  return (result) => {
    if (result.exitCode !== 0) {
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
    return { ok: true, value: extract(result) };
  };
}

function outputText(result: ToolResult): string {
  return result.output;
}

const ANCHORED_LINE = /^ *(\d+)\t/;

/**
 * The file text behind one `read` page. `read` renders numbered lines (`     1\tline\n`) plus a
 * continuation footer for the model; a program wants the text. The number of lines comes from
 * `metadata.lines_shown`, so a footer (or content that looks like one) is never mistaken for a
 * line; every shown line is returned with its newline.
 */
export function readText(result: ToolResult): string {
  const metadata = result.metadata ?? {};
  if (typeof metadata['content'] === 'string') return metadata['content'];
  const shown = typeof metadata['lines_shown'] === 'number' ? metadata['lines_shown'] : undefined;
  if (shown === 0) return '';
  const lines = result.output.split('\n');
  const text: string[] = [];
  for (const line of lines) {
    if (shown !== undefined && text.length >= shown) break;
    const match = ANCHORED_LINE.exec(line);
    if (match === null) break;
    text.push(`${line.slice(match[0].length)}\n`);
  }
  return text.length === 0 ? result.output : text.join('');
}

function nextOffset(result: ToolResult): number | null {
  const next = result.metadata?.['next_offset'];
  return typeof next === 'number' ? next : null;
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
