import type { ToolErrorKind, ToolResult } from '@a3s-lab/code-core';
import { byteLength, truncateUtf8 } from './tool-support.js';

/** One settled child of a batch, in request order. */
export interface BatchChildOutcome {
  readonly index: number;
  /** The caller's id, or the index as a string. */
  readonly id: string;
  readonly tool: string;
  readonly step?: string;
  readonly result: ToolResult;
  readonly durationMs: number;
}

/** One child as listed in `metadata.batch.results`. */
export interface BatchChildSummary {
  readonly index: number;
  readonly id: string;
  readonly tool: string;
  readonly step?: string;
  readonly exit_code: number;
  /** UTF-8 bytes of the child's (kernel-bounded) output. */
  readonly bytes: number;
  readonly duration_ms: number;
  readonly error_kind?: ToolErrorKind;
  /** The child's output was cut to its share of the batch output. */
  readonly truncated?: boolean;
  /** Where the child's whole output is, when it is not all inline. */
  readonly artifact?: string;
}

/** The rendered batch: output text plus the per-child summaries. */
export interface RenderedBatch {
  readonly text: string;
  readonly results: readonly BatchChildSummary[];
  /** Artifacts created for cut child outputs. */
  readonly artifacts: readonly string[];
}

/**
 * Splits `budget` bytes between outputs of `sizes` bytes: small outputs take what they need and
 * the rest is shared evenly by the larger ones (max-min fairness), so one huge child cannot
 * crowd out the others.
 */
export function shareBudget(sizes: readonly number[], budget: number): number[] {
  const order = sizes.map((size, index) => ({ size, index })).sort((a, b) => a.size - b.size);
  const shares = new Array<number>(sizes.length).fill(0);
  let remaining = budget;
  order.forEach(({ size, index }, rank) => {
    const share = Math.min(size, Math.floor(remaining / (order.length - rank)));
    shares[index] = share;
    remaining -= share;
  });
  return shares;
}

function header(child: BatchChildOutcome): string {
  const label = `[${child.index}] ${child.tool}${child.id === String(child.index) ? '' : ` id=${child.id}`}${child.step === undefined ? '' : ` step=${JSON.stringify(child.step)}`}`;
  if (child.result.exitCode === 0) return `${label}: ok`;
  const kind = child.result.errorKind === undefined ? '' : `, ${child.result.errorKind.type}`;
  return `${label}: failed (exit ${child.result.exitCode}${kind})`;
}

function outputArtifact(result: ToolResult): string | undefined {
  const bounds = result.metadata?.['output_bounds'];
  if (typeof bounds === 'object' && bounds !== null && typeof (bounds as { artifact?: unknown }).artifact === 'string') return (bounds as { artifact: string }).artifact;
  return undefined;
}

/**
 * Renders the children in request order under a summary line, each output cut to its share of
 * `budget` bytes. A cut output names where the whole of it is: the child's own artifact when
 * the kernel already made one, else one stored through `storeArtifact`.
 */
export function renderBatch(
  children: readonly BatchChildOutcome[],
  summary: string,
  budget: number,
  storeArtifact: (content: string) => string,
): RenderedBatch {
  const sizes = children.map((child) => byteLength(child.result.output));
  const headers = children.map(header);
  // Each child adds its header, a newline after it and a blank line before it.
  const overhead = byteLength(summary) + headers.reduce((sum, text) => sum + byteLength(text) + 3, 0);
  const shares = shareBudget(sizes, Math.max(0, budget - overhead));
  const parts: string[] = [summary];
  const results: BatchChildSummary[] = [];
  const created: string[] = [];
  children.forEach((child, position) => {
    const size = sizes[position] as number;
    const share = shares[position] as number;
    let body = child.result.output;
    let artifact = outputArtifact(child.result);
    const truncated = share < size;
    if (truncated) {
      if (artifact === undefined) {
        artifact = storeArtifact(child.result.output);
        created.push(artifact);
      }
      const note = `\n[... ${size - share} more bytes of this output; full output: ${artifact}]`;
      body = truncateUtf8(child.result.output, Math.max(0, share - byteLength(note))) + note;
    }
    parts.push(`${headers[position] as string}\n${body}`);
    results.push({
      index: child.index,
      id: child.id,
      tool: child.tool,
      ...(child.step === undefined ? {} : { step: child.step }),
      exit_code: child.result.exitCode,
      bytes: size,
      duration_ms: child.durationMs,
      ...(child.result.errorKind === undefined ? {} : { error_kind: child.result.errorKind }),
      ...(truncated ? { truncated: true } : {}),
      ...(artifact === undefined ? {} : { artifact }),
    });
  });
  return { text: parts.join('\n\n'), results, artifacts: created };
}
