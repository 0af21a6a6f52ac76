import type { ArtifactStore } from '../../artifacts/artifact-store.js';
import { CodeError } from '../../errors/code-error.js';
import { boundUtf8HeadTail, utf8ByteLength, utf8ByteLengthUpperBound } from '../../artifacts/utf8.js';
import type { ToolOutput } from '../../tools/tool-result.js';
import type { InvocationCall } from '../invocation-call.js';

const ARTIFACT_ID = /^[A-Za-z0-9_.:-]{1,128}$/;

function store(artifacts: ArtifactStore, call: InvocationCall, content: string): { uri: string; truncated: boolean } {
  const id = ARTIFACT_ID.test(call.toolId) ? call.toolId : undefined;
  const put = (text: string): string => artifacts.put(call.toolName, text, id === undefined ? {} : { id }).uri;
  try {
    return { uri: put(content), truncated: false };
  } catch (error) {
    if (!CodeError.hasCode(error, 'IO_ERROR')) throw error;
    // Larger than the whole store: keep a head+tail copy that says what it lost.
    return { uri: put(boundUtf8HeadTail(content, artifacts.maxBytes).text), truncated: true };
  }
}

/**
 * Stage 14: bounds the inline output to `maxInlineBytes` UTF-8 bytes. Larger output keeps its
 * head AND tail around an exact `[... N bytes omitted ...]` marker, and the full (redacted)
 * output is saved as an artifact `a3s://tool-output/<tool>/<id>` listed in `result.artifacts`
 * and described in `metadata.output_bounds`.
 */
export function boundOutput(artifacts: ArtifactStore, call: InvocationCall, output: ToolOutput, maxInlineBytes: number): ToolOutput {
  const text = output.output;
  if (utf8ByteLengthUpperBound(text) <= maxInlineBytes) return output;
  const totalBytes = utf8ByteLength(text);
  if (totalBytes <= maxInlineBytes) return output;
  const saved = store(artifacts, call, text);
  const hint = `\n[full output: ${saved.uri}]`;
  const bounded = boundUtf8HeadTail(text, Math.max(0, maxInlineBytes - utf8ByteLength(hint)));
  return {
    ...output,
    output: bounded.text + hint,
    artifacts: [...(output.artifacts ?? []), saved.uri],
    metadata: {
      ...output.metadata,
      output_bounds: {
        total_bytes: totalBytes,
        omitted_bytes: bounded.omittedBytes,
        max_inline_bytes: maxInlineBytes,
        artifact: saved.uri,
        ...(saved.truncated ? { artifact_truncated: true } : {}),
      },
    },
  };
}
