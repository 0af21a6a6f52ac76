import type { Context } from '@opentelemetry/api';
import { otelApi, TRACE_FLAG_SAMPLED } from './otel-api.js';

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/** Whether `value` is a W3C `traceparent` header value (version 00..fe, non-zero ids). */
export function isTraceparent(value: string): boolean {
  const match = TRACEPARENT.exec(value.trim());
  return match !== null && match[1] !== 'ff' && !/^0+$/.test(match[2]!) && !/^0+$/.test(match[3]!);
}

/** The remote parent a send request names with `traceparent`; `undefined` when it names none (or nothing traces). */
export function traceparentContext(value: string | undefined): Context | undefined {
  const api = otelApi();
  if (value === undefined || api === null) return undefined;
  const match = TRACEPARENT.exec(value.trim());
  if (match === null || !isTraceparent(value)) return undefined;
  const flags = Number.parseInt(match[4]!, 16) & TRACE_FLAG_SAMPLED;
  return api.trace.setSpanContext(api.ROOT_CONTEXT, { traceId: match[2]!, spanId: match[3]!, traceFlags: flags, isRemote: true });
}
