import type { ToolErrorKind } from '../errors/tool-error-kind.js';

/** A binary attachment returned by a tool (an image read from the workspace). */
export interface ToolAttachment {
  /** IANA media type, e.g. `image/png`. */
  readonly mediaType: string;
  /** Raw bytes. */
  readonly data: Uint8Array;
  /** Workspace-relative path the bytes came from, when they came from a file. */
  readonly path?: string;
}

/**
 * The outcome of one tool invocation. `exitCode` 0 means success; any other value is a failure
 * whose kind, when known, is in `errorKind`.
 */
export interface ToolResult {
  /** Name of the tool that ran. */
  readonly name: string;
  /** Model-readable output, already redacted and bounded by the kernel. */
  readonly output: string;
  /** 0 on success; non-zero on failure (tools like `bash` pass the process exit code through). */
  readonly exitCode: number;
  /** Structured, JSON-serialisable facts (pagination cursors, diff stats, program calls...). */
  readonly metadata?: Readonly<Record<string, unknown>>;
  /** Why the call failed, when it failed for a known reason. */
  readonly errorKind?: ToolErrorKind;
  /** Binary attachments (images) for the model. */
  readonly attachments?: readonly ToolAttachment[];
  /** URIs (`a3s://tool-output/<tool>/<id>`) of artifacts holding output too large to inline. */
  readonly artifacts?: readonly string[];
}

/** What a tool's `execute` returns: the kernel fills in `name` and defaults `exitCode` to 0. */
export type ToolOutput = Omit<ToolResult, 'name' | 'exitCode'> & { readonly exitCode?: number };

/** Builds a failed {@link ToolOutput} with an error kind. */
export function toolFailure(output: string, errorKind?: ToolErrorKind, metadata?: Readonly<Record<string, unknown>>): ToolOutput {
  return { output, exitCode: 1, ...(errorKind === undefined ? {} : { errorKind }), ...(metadata === undefined ? {} : { metadata }) };
}
