/**
 * Why a tool invocation failed, as a tagged union on `type`. Carried by `ToolResult.errorKind`
 * so hosts and models can branch on the kind without parsing output text.
 */
export type ToolErrorKind =
  | { readonly type: 'version_conflict'; readonly path: string; readonly expected: string | null; readonly actual?: string | null }
  | { readonly type: 'not_found'; readonly path: string }
  | { readonly type: 'invalid_argument'; readonly message: string }
  | { readonly type: 'hook_denied'; readonly reason: string; readonly retryable: boolean; readonly retry_after_ms?: number }
  | { readonly type: 'permission_denied'; readonly reason: string }
  | { readonly type: 'unsupported'; readonly message: string }
  | { readonly type: 'timeout'; readonly op: string; readonly duration_ms: number }
  | { readonly type: 'transport'; readonly op: string; readonly message?: string }
  | { readonly type: 'cancelled'; readonly op: string }
  | { readonly type: 'partial_failure'; readonly failed: readonly number[]; readonly total: number }
  | { readonly type: 'rate_limited'; readonly retry_after_ms?: number };

/** The `type` tags of {@link ToolErrorKind}, in declaration order. */
export const TOOL_ERROR_KIND_TYPES = [
  'version_conflict',
  'not_found',
  'invalid_argument',
  'hook_denied',
  'permission_denied',
  'unsupported',
  'timeout',
  'transport',
  'cancelled',
  'partial_failure',
  'rate_limited',
] as const satisfies readonly ToolErrorKind['type'][];

const KIND_TYPES: ReadonlySet<string> = new Set(TOOL_ERROR_KIND_TYPES);

/** True when `value` is tagged with one of the {@link TOOL_ERROR_KIND_TYPES}. */
export function isToolErrorKind(value: unknown): value is ToolErrorKind {
  return typeof value === 'object' && value !== null && KIND_TYPES.has((value as { type?: unknown }).type as string);
}

/**
 * The error kind a thrown error declares (`new CodeError(code, message, { details: { errorKind } })`),
 * or `undefined`. The one reading of that convention, for the kernel and for tools.
 */
export function declaredErrorKind(error: unknown): ToolErrorKind | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const details = (error as { details?: unknown }).details;
  const kind = typeof details === 'object' && details !== null ? (details as Record<string, unknown>)['errorKind'] : undefined;
  return isToolErrorKind(kind) ? kind : undefined;
}
