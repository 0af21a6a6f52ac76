// How one of our tool calls looks to an ACP client: kind, title, locations, and its result as
// content (a diff for edit / write / patch, the output text otherwise).
import { isAbsolute, resolve } from 'node:path';
import type { ToolCallContent, ToolCallLocation, ToolKind } from '@agentclientprotocol/sdk';
import { keyArgument } from '../tool-summary.js';

const KINDS: Readonly<Record<string, ToolKind>> = {
  read: 'read',
  ls: 'search',
  glob: 'search',
  grep: 'search',
  search_skills: 'search',
  edit: 'edit',
  write: 'edit',
  patch: 'edit',
  bash: 'execute',
  git: 'execute',
  program: 'execute',
  web_fetch: 'fetch',
  web_search: 'fetch',
  update_plan: 'think',
  task: 'think',
  parallel_task: 'think',
};

/** Longest tool output sent as a tool call's text content (the model still gets it whole). */
export const MAX_TOOL_OUTPUT_CHARS = 20_000;

const asRecord = (value: unknown): Record<string, unknown> => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {});
const asString = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** The ACP kind of a tool (`other` for tools without one, MCP tools included). */
export function toolKind(toolName: string): ToolKind {
  return KINDS[toolName] ?? 'other';
}

/** `bash npm test`, `edit src/a.ts`: the tool and the argument that says what it does. */
export function toolTitle(toolName: string, args: unknown): string {
  const key = keyArgument(toolName, args);
  return key.length === 0 ? toolName : `${toolName} ${key}`;
}

const absolute = (workspace: string, path: string): string => (isAbsolute(path) ? path : resolve(workspace, path));

/** The files a call touches, as absolute paths (ACP clients follow along). */
export function toolLocations(workspace: string, args: unknown, metadata?: unknown): ToolCallLocation[] {
  const record = asRecord(args);
  const paths = new Set<string>();
  for (const name of ['file_path', 'path']) {
    const value = asString(record[name]);
    if (value !== undefined && value.length > 0) paths.add(absolute(workspace, value));
  }
  const fromMetadata = asString(asRecord(metadata)['path']);
  if (fromMetadata !== undefined && fromMetadata.length > 0) paths.add(absolute(workspace, fromMetadata));
  return [...paths].map((path) => ({ path }));
}

/**
 * The change a successful edit / write / patch made, as an ACP diff: the whole file before and
 * after (from the tool's metadata), else the replaced snippet (`edit`) or the written content
 * (`write`). `null` for other tools and failed calls.
 */
export function diffContent(workspace: string, toolName: string, args: unknown, metadata: unknown): ToolCallContent | null {
  if (toolName !== 'edit' && toolName !== 'write' && toolName !== 'patch') return null;
  const meta = asRecord(metadata);
  if (meta['dry_run'] === true) return null;
  const input = asRecord(args);
  const file = asString(meta['path']) ?? asString(input['file_path']);
  if (file === undefined || file.length === 0) return null;
  const path = absolute(workspace, file);
  const created = meta['created'] === true;
  const before = asString(meta['before']);
  const after = asString(meta['after']);
  if (after !== undefined) return { type: 'diff', path, oldText: created ? null : (before ?? null), newText: after };
  if (toolName === 'edit') {
    const oldText = asString(input['old_string']);
    const newText = asString(input['new_string']);
    if (newText !== undefined) return { type: 'diff', path, oldText: created ? null : (oldText ?? null), newText };
  }
  if (toolName === 'write') {
    const content = asString(input['content']);
    if (content !== undefined) return { type: 'diff', path, oldText: null, newText: content };
  }
  return null;
}

/** The output of a call as a text content block, cut at {@link MAX_TOOL_OUTPUT_CHARS}. */
export function outputContent(output: string): ToolCallContent[] {
  if (output.length === 0) return [];
  const text = output.length > MAX_TOOL_OUTPUT_CHARS ? `${output.slice(0, MAX_TOOL_OUTPUT_CHARS)}\n… (${output.length - MAX_TOOL_OUTPUT_CHARS} more characters)` : output;
  return [{ type: 'content', content: { type: 'text', text } }];
}
