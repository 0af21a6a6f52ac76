import type { ToolContext } from '@a3s-lab/code-core';
import { sha256Hex } from './sha256.js';
import { truncateUtf8, utf8Encoder } from './tool-support.js';
import { createUnifiedDiff } from './unified-diff.js';

/** Files above this size get bounded previews instead of full before/after text. */
export const LARGE_FILE_BYTES = 64 * 1024;
/** The inline unified diff is cut at this many bytes; the full diff goes to an artifact. */
export const MAX_INLINE_DIFF_BYTES = 32 * 1024;
/** Size bound of each of `before_preview` / `after_preview`. */
export const PREVIEW_BYTES = 2048;

/** Input of {@link describeChange}. */
export interface ChangeInput {
  readonly path: string;
  readonly before: string;
  readonly after: string;
  readonly beforeBytes: Uint8Array;
  readonly afterBytes: Uint8Array;
  /** The file did not exist before. */
  readonly created?: boolean;
  /** The file no longer exists after. */
  readonly deleted?: boolean;
}

/** What a file change reports: metadata, the bounded diff for the output, artifact URIs. */
export interface ChangeDescription {
  readonly metadata: Record<string, unknown>;
  /** The unified diff, bounded to {@link MAX_INLINE_DIFF_BYTES} (with a marker when cut). */
  readonly diff: string;
  readonly additions: number;
  readonly deletions: number;
  readonly artifacts: string[];
}

/**
 * Diff metadata shared by `edit` and `patch` (and their dry runs): unified diff, additions,
 * deletions, sha256 hashes and byte sizes of both sides. Small files also carry the full
 * `before`/`after` text; large ones (> {@link LARGE_FILE_BYTES}) carry bounded previews of the
 * first hunk instead, and a diff too long to inline is cut and stored whole as an artifact.
 */
export async function describeChange(input: ChangeInput, context: Pick<ToolContext, 'storeArtifact'>): Promise<ChangeDescription> {
  const full = createUnifiedDiff(input.path, input.before, input.after, { ...(input.created === true ? { created: true } : {}), ...(input.deleted === true ? { deleted: true } : {}) });
  const [beforeHash, afterHash] = await Promise.all([sha256Hex(input.beforeBytes), sha256Hex(input.afterBytes)]);
  const diffBytes = utf8Encoder.encode(full.text).byteLength;
  const large = input.beforeBytes.byteLength > LARGE_FILE_BYTES || input.afterBytes.byteLength > LARGE_FILE_BYTES;
  const artifacts: string[] = [];
  let diff = full.text;
  let truncated = false;
  if (diffBytes > MAX_INLINE_DIFF_BYTES || large) {
    const uri = context.storeArtifact(full.text, { mediaType: 'text/x-diff' });
    artifacts.push(uri);
    if (diffBytes > MAX_INLINE_DIFF_BYTES) {
      const head = truncateUtf8(full.text, MAX_INLINE_DIFF_BYTES);
      const cut = head.lastIndexOf('\n') + 1;
      const kept = cut > 0 ? head.slice(0, cut) : head;
      diff = `${kept}... diff truncated: ${utf8Encoder.encode(kept).byteLength} of ${diffBytes} bytes shown; full diff in ${uri}\n`;
      truncated = true;
    }
  }
  const metadata: Record<string, unknown> = {
    path: input.path,
    diff,
    diff_bytes: diffBytes,
    diff_truncated: truncated,
    additions: full.additions,
    deletions: full.deletions,
    hunks: full.hunks,
    before_hash: beforeHash,
    after_hash: afterHash,
    before_bytes: input.beforeBytes.byteLength,
    after_bytes: input.afterBytes.byteLength,
    large,
  };
  if (large) {
    const preview = firstHunkPreview(full.text);
    metadata['before_preview'] = truncateUtf8(preview.before, PREVIEW_BYTES);
    metadata['after_preview'] = truncateUtf8(preview.after, PREVIEW_BYTES);
  } else {
    metadata['before'] = input.before;
    metadata['after'] = input.after;
  }
  if (artifacts.length > 0) metadata['artifacts'] = artifacts;
  return { metadata, diff, additions: full.additions, deletions: full.deletions, artifacts };
}

/** Old and new side of the first hunk of a unified diff (context plus changed lines), each bounded. */
function firstHunkPreview(diff: string): { before: string; after: string } {
  const start = diff.indexOf('\n@@');
  if (start === -1) return { before: '', after: '' };
  let before = '';
  let after = '';
  let at = diff.indexOf('\n', start + 1) + 1;
  while (at > 0 && at < diff.length && (before.length <= PREVIEW_BYTES || after.length <= PREVIEW_BYTES)) {
    const end = diff.indexOf('\n', at);
    const line = diff.slice(at, end === -1 ? diff.length : end);
    if (line.startsWith('@@')) break;
    const body = `${line.slice(1)}\n`;
    const prefix = line[0];
    if ((prefix === ' ' || prefix === '-') && before.length <= PREVIEW_BYTES) before += body;
    if ((prefix === ' ' || prefix === '+') && after.length <= PREVIEW_BYTES) after += body;
    if (end === -1) break;
    at = end + 1;
  }
  return { before, after };
}
