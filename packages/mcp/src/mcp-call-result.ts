import type { ToolAttachment, ToolOutput } from '@a3s-lab/code-core';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** Largest total of attachment bytes kept from one result; later attachments are described only. */
export const MAX_MCP_ATTACHMENT_BYTES = 10 * 1024 * 1024;

/** Identifies the call in the result's `metadata.mcp`. */
export interface McpCallOrigin {
  readonly server: string;
  readonly tool: string;
}

/**
 * Maps an MCP `tools/call` result to kernel tool output: text parts become the output (joined by
 * newlines); images become attachments (up to {@link MAX_MCP_ATTACHMENT_BYTES}) with a line in
 * the output; embedded text resources are inlined under a header naming their URI; blobs and
 * resource links are described; `structuredContent` goes to `metadata.mcp.structured_content`
 * (and is the output when there is no content). `isError` makes a failed result (exit code 1),
 * never an exception. The kernel then redacts, bounds and spills large output to an artifact.
 */
export function toToolOutput(result: CallToolResult, origin: McpCallOrigin): ToolOutput {
  const parts: string[] = [];
  const attachments: ToolAttachment[] = [];
  let attachmentBytes = 0;
  for (const item of result.content ?? []) {
    switch (item.type) {
      case 'text':
        parts.push(item.text);
        break;
      case 'image': {
        const data = Buffer.from(item.data, 'base64');
        if (attachmentBytes + data.byteLength <= MAX_MCP_ATTACHMENT_BYTES) {
          attachmentBytes += data.byteLength;
          attachments.push({ mediaType: item.mimeType, data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) });
          parts.push(`[image ${item.mimeType}, ${data.byteLength} bytes, attached]`);
        } else {
          parts.push(`[image ${item.mimeType}, ${data.byteLength} bytes, not attached: over the ${MAX_MCP_ATTACHMENT_BYTES}-byte attachment bound]`);
        }
        break;
      }
      case 'audio':
        parts.push(`[audio ${item.mimeType}, ${Math.floor((item.data.length * 3) / 4)} bytes, not shown]`);
        break;
      case 'resource': {
        const resource = item.resource;
        if ('text' in resource && typeof resource.text === 'string') {
          parts.push(`[resource ${resource.uri}${resource.mimeType === undefined ? '' : ` (${resource.mimeType})`}]\n${resource.text}`);
        } else {
          parts.push(`[resource ${resource.uri}${resource.mimeType === undefined ? '' : ` (${resource.mimeType})`}: binary, not shown]`);
        }
        break;
      }
      case 'resource_link':
        parts.push(`[resource link ${item.name}: ${item.uri}]`);
        break;
      default:
        parts.push(`[unsupported content type ${String((item as { type?: unknown }).type)}]`);
    }
  }
  const structured = result.structuredContent;
  if (parts.length === 0 && structured !== undefined) parts.push(JSON.stringify(structured, null, 2));
  const isError = result.isError === true;
  const metadata = { mcp: { server: origin.server, tool: origin.tool, is_error: isError, ...(structured === undefined ? {} : { structured_content: structured }) } };
  return {
    output: parts.join('\n'),
    exitCode: isError ? 1 : 0,
    metadata,
    ...(attachments.length === 0 ? {} : { attachments }),
  };
}
