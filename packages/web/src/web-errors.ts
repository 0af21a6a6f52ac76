import { CodeError } from '@a3s-lab/code-core';
import type { ToolErrorKind } from '@a3s-lab/code-core';

/** A refused target (SSRF guard): SECURITY_ERROR with a `permission_denied` error kind. */
export function refusedTarget(url: string, reason: string): CodeError {
  const message = `refused to fetch ${url}: ${reason}`;
  return new CodeError('SECURITY_ERROR', message, { details: { url, reason, errorKind: { type: 'permission_denied', reason: message } satisfies ToolErrorKind } });
}

/** A failure the caller can branch on: TOOL_ERROR carrying `details.errorKind`. */
export function webFailure(message: string, errorKind: ToolErrorKind, details: Readonly<Record<string, unknown>> = {}, cause?: unknown): CodeError {
  return new CodeError('TOOL_ERROR', message, { details: { ...details, errorKind }, ...(cause === undefined ? {} : { cause }) });
}
