import { CodeError, toolFailure, unsafeSchemaPatterns } from '@a3s-lab/code-core';
import { describeUnsafePatterns } from '@a3s-lab/code-core/util';
import type { AnyTool, JsonSchema, ToolCapabilities, ToolErrorKind } from '@a3s-lab/code-core';
import type { Tool as McpToolDefinition } from '@modelcontextprotocol/sdk/types.js';
import { toToolOutput } from './mcp-call-result.js';
import type { McpConnection } from './mcp-connection.js';

/** Longest tool description kept from a server (characters); the rest is cut with a marker. */
export const MAX_MCP_DESCRIPTION_LENGTH = 2048;
/** Largest input schema accepted from a server (bytes of JSON); a tool with a larger one is left out. */
export const MAX_MCP_SCHEMA_BYTES = 64 * 1024;

// Control characters (other than tab and newline) have no place in text shown to a model.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/**
 * Characters a reader does not see but a model reads: format characters (zero-width space and
 * joiners U+200B-U+200D, direction marks U+200E-U+200F and U+061C, bidi embeddings and overrides
 * U+202A-U+202E, isolates U+2066-U+2069, word joiner and invisible operators U+2060-U+2064, BOM
 * U+FEFF, soft hyphen, interlinear annotations: Unicode category Cf), Unicode tag characters
 * U+E0000-U+E007F (which can spell out hidden ASCII), variation selectors and the line and
 * paragraph separators U+2028-U+2029.
 */
const INVISIBLE = /[\p{Cf}\u{E0000}-\u{E007F}\u{FE00}-\u{FE0F}\u{E0100}-\u{E01EF}\u2028\u2029]/gu;

/** `text` without invisible and bidi characters (see above), and how many were removed. */
export function stripInvisibleCharacters(text: string): { readonly text: string; readonly removed: number } {
  let removed = 0;
  const clean = text.replace(INVISIBLE, () => {
    removed += 1;
    return '';
  });
  return { text: clean, removed };
}

/**
 * A server's description as the model sees it: without control characters and invisible or bidi
 * characters (how many of those were removed is `removed`, for the server's status), bounded, and
 * naming its server.
 */
export function sanitizeDescription(description: string | undefined, server: string, tool: string): { readonly text: string; readonly removed: number } {
  const visible = stripInvisibleCharacters(description ?? '');
  const clean = visible.text.replace(CONTROL, '').trim();
  const text = clean.length > MAX_MCP_DESCRIPTION_LENGTH ? `${clean.slice(0, MAX_MCP_DESCRIPTION_LENGTH)} [description cut]` : clean;
  return { text: text.length > 0 ? `${text}\n(MCP tool '${tool}' of server '${server}')` : `MCP tool '${tool}' of server '${server}'.`, removed: visible.removed };
}

/** A server's description, cleaned of control and invisible characters and bounded (see {@link sanitizeDescription}). */
export function boundDescription(description: string | undefined, server: string, tool: string): string {
  return sanitizeDescription(description, server, tool).text;
}

/**
 * Kernel capabilities from MCP tool annotations. Annotations are hints from an untrusted server:
 * only an explicit `readOnlyHint: true` makes a call read-only (and only then may it fan out); a
 * tool without annotations is treated as mutating, non-idempotent and not cancellation-safe.
 */
export function capabilitiesFromAnnotations(annotations: McpToolDefinition['annotations']): Partial<ToolCapabilities> {
  const readOnly = annotations?.readOnlyHint === true;
  const idempotent = readOnly || (annotations?.idempotentHint === true && annotations.destructiveHint !== true);
  return { readOnly, idempotent, cancellationSafe: readOnly, maxParallelism: readOnly ? 4 : 1, outputKind: 'mixed' };
}

/** Why a tool from a server cannot be offered, or `null` when it can. */
export function unusableSchemaReason(definition: McpToolDefinition): string | null {
  const schema = definition.inputSchema as unknown;
  if (typeof schema !== 'object' || schema === null || (schema as { type?: unknown }).type !== 'object') return 'its inputSchema is not an object schema';
  if (JSON.stringify(schema).length > MAX_MCP_SCHEMA_BYTES) return `its inputSchema is over ${MAX_MCP_SCHEMA_BYTES} bytes`;
  // A pattern that can backtrack without bound would let the server stall the host through the
  // kernel's argument validation (SECURITY.md principle 14): the tool is not offered.
  const unsafe = unsafeSchemaPatterns(schema);
  if (unsafe.length > 0) return `its inputSchema is unsafe: ${describeUnsafePatterns(unsafe)}`;
  return null;
}

/**
 * The kernel {@link AnyTool} for one MCP tool, named `name` (see `mcpToolName`), described by
 * `description` (default: the server's, through {@link boundDescription}). Its schema is the
 * server's input schema (the kernel validates draft-07 and 2020-12); its deadline is the server's
 * `timeoutMs`; its capabilities come from the annotations. Execution calls the server through
 * `connection`; a failure comes back as a failed result with `metadata.mcp.error_code`
 * `MCP_ERROR`, an abort (timeout, cancellation) is left to the kernel, which reports it.
 */
export function createMcpTool(connection: McpConnection, definition: McpToolDefinition, name: string, description: string = boundDescription(definition.description, connection.name, definition.name)): AnyTool {
  const server = connection.name;
  const tool = definition.name;
  const capabilities = capabilitiesFromAnnotations(definition.annotations);
  return {
    name,
    description,
    parameters: definition.inputSchema as JsonSchema,
    capabilities: () => capabilities,
    timeoutMs: () => connection.config.timeoutMs,
    async execute(args: Record<string, unknown>, context) {
      try {
        const result = await connection.callTool(tool, args, context.abortSignal);
        return toToolOutput(result, { server, tool });
      } catch (error) {
        if (context.abortSignal.aborted) throw error;
        if (!CodeError.isInstance(error)) throw error;
        const kind = error.details['errorKind'] as ToolErrorKind | undefined;
        return toolFailure(`Error: ${error.message}`, kind, { mcp: { server, tool, error_code: error.code, reason: error.details['reason'] ?? null } });
      }
    },
  };
}
