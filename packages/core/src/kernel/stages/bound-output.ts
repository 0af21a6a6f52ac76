import type { ArtifactRef, ArtifactStore } from '../../artifacts/artifact-store.js';
import { boundUtf8HeadTail, utf8ByteLength, utf8ByteLengthUpperBound } from '../../artifacts/utf8.js';
import type { ToolOutput } from '../../tools/tool-result.js';
import type { InvocationCall } from '../invocation-call.js';

const ARTIFACT_ID = /^[A-Za-z0-9_.:-]{1,128}$/;

function store(artifacts: ArtifactStore, call: InvocationCall, content: string): ArtifactRef {
  const id = ARTIFACT_ID.test(call.toolId) ? call.toolId : undefined;
  // Larger than the whole store: a head+tail copy that says what it lost, marked truncated.
  return artifacts.putBounded(call.toolName, content, id === undefined ? {} : { id });
}

/**
 * Stage 14: bounds the inline output to `maxInlineBytes` UTF-8 bytes. Larger output keeps its
 * head AND tail around an exact `[... N bytes omitted ...]` marker, and the full (redacted)
 * output is saved as an artifact `a3s://tool-output/<tool>/<id>` listed in `result.artifacts`
 * and described in `metadata.output_bounds`. An output larger than the artifact store's
 * `maxBytes` is saved cut (the artifact is `truncated`, with `originalBytes`), and the hint the
 * model reads says it is partial (`artifact_truncated` / `artifact_bytes` in `output_bounds`).
 */
export function boundOutput(artifacts: ArtifactStore, call: InvocationCall, output: ToolOutput, maxInlineBytes: number): ToolOutput {
  const text = output.output;
  if (utf8ByteLengthUpperBound(text) <= maxInlineBytes) return output;
  const totalBytes = utf8ByteLength(text);
  if (totalBytes <= maxInlineBytes) return output;
  const saved = store(artifacts, call, text);
  // Only say "full" when the artifact holds the whole output.
  const hint =
    saved.truncated === true
      ? `\n[partial output: ${saved.uri} holds ${saved.bytes} of ${saved.originalBytes ?? totalBytes} bytes (artifactStoreLimits.maxBytes ${artifacts.maxBytes}); the middle is omitted]`
      : `\n[full output: ${saved.uri}]`;
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
        ...(saved.truncated === true ? { artifact_truncated: true, artifact_bytes: saved.bytes } : {}),
      },
    },
  };
}
