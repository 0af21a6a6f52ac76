import { CodeError, READ_ONLY_TOOL_CAPABILITIES, toolFailure } from '@a3s-lab/code-core';
import { declaredErrorKind, utf8ByteLength } from '@a3s-lab/code-core/util';
import type { ToolCapabilities, ToolOutput } from '@a3s-lab/code-core';

/** UTF-8 encoder shared by the tools. */
export const utf8Encoder = new TextEncoder();
/** Lenient UTF-8 decoder (invalid bytes become U+FFFD) shared by the tools. */
export const utf8Decoder = new TextDecoder('utf-8');

/** How many leading bytes are checked for a NUL byte to call a file binary. */
export const BINARY_SNIFF_BYTES = 8192;

/** Byte length of `text` in UTF-8, counted without allocating (core's single implementation). */
export const byteLength: (text: string) => number = utf8ByteLength;

/** True when the first {@link BINARY_SNIFF_BYTES} bytes hold a NUL byte. */
export function looksBinary(content: Uint8Array): boolean {
  return content.subarray(0, BINARY_SNIFF_BYTES).includes(0);
}

/** A failed output with an `invalid_argument` error kind. */
export function invalidArgument(message: string, metadata?: Readonly<Record<string, unknown>>): ToolOutput {
  return toolFailure(message, { type: 'invalid_argument', message }, metadata);
}

/** A failed output with a `not_found` error kind. */
export function notFound(path: string, message = `File not found: ${path}`): ToolOutput {
  return toolFailure(message, { type: 'not_found', path });
}

/** A thrown `invalid_argument` failure, for helpers that cannot return a ToolOutput. */
export function invalidArgumentError(message: string, details: Readonly<Record<string, unknown>> = {}): CodeError {
  return new CodeError('TOOL_ERROR', message, { details: { ...details, errorKind: { type: 'invalid_argument', message } } });
}

/** Converts a thrown CodeError carrying `details.errorKind` into a failed output; rethrows others. */
export function failureFromThrown(error: unknown): ToolOutput {
  if (CodeError.isInstance(error)) {
    const kind = declaredErrorKind(error);
    if (kind !== undefined) return toolFailure(error.message, kind);
  }
  throw error;
}

/** Capabilities of a read-only, idempotent, cancellation-safe call; paginated tools say so. */
export function readOnlyCapabilities(overrides: Partial<ToolCapabilities> = {}): Partial<ToolCapabilities> {
  return { ...READ_ONLY_TOOL_CAPABILITIES, ...overrides };
}

/** Capabilities of a call that changes the workspace (the conservative default, made explicit). */
export function mutatingCapabilities(overrides: Partial<ToolCapabilities> = {}): Partial<ToolCapabilities> {
  return { readOnly: false, idempotent: false, cancellationSafe: false, maxParallelism: 1, outputKind: 'text', ...overrides };
}

/** UTF-8 cutting lives in core (one copy for tools, programs and the kernel). */
export { truncateUtf8, utf8Boundary } from '@a3s-lab/code-core/util';

/** Parses a decimal offset cursor of the tools' own pagination; `null` when it is not one. */
export function parseOffsetCursor(cursor: string | undefined): number | null {
  if (cursor === undefined) return 0;
  return /^\d{1,12}$/.test(cursor) ? Number(cursor) : null;
}
