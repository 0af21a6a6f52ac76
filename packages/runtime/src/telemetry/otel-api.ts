import type * as OpenTelemetryApi from '@opentelemetry/api';
import type { TelemetryOptions } from '@a3s-lab/code-core';

/** The `@opentelemetry/api` module. */
export type OtelApi = typeof OpenTelemetryApi;

/** Where every 1.x copy of the API keeps what a host registered (tracer, meter, context manager...). */
const API_GLOBAL = Symbol.for('opentelemetry.js.api.1');

// Enum values of the API (stable across 1.x), so that no code path needs the module to name them.
export const SPAN_KIND_INTERNAL = 0;
export const SPAN_KIND_CLIENT = 2;
export const SPAN_STATUS_ERROR = 2;
export const VALUE_TYPE_INT = 0;
export const TRACE_FLAG_SAMPLED = 1;

let loaded: OtelApi | null = null;
let loading: Promise<OtelApi> | null = null;

/** The API once loaded; `null` before: telemetry then records nothing (and costs nothing). */
export function otelApi(): OtelApi | null {
  return loaded;
}

/** True when something in the process registered OpenTelemetry globals (a NodeSDK, a tracer provider...). */
export function hostRegisteredOpenTelemetry(): boolean {
  const registered = (globalThis as Record<symbol, Record<string, unknown> | undefined>)[API_GLOBAL];
  return registered !== undefined && (registered['trace'] !== undefined || registered['metrics'] !== undefined || registered['context'] !== undefined);
}

/** Loads `@opentelemetry/api` (once). */
export function loadOtelApi(): Promise<OtelApi> {
  if (loaded !== null) return Promise.resolve(loaded);
  loading ??= import('@opentelemetry/api').then((api) => (loaded = api));
  return loading;
}

/**
 * Loads the API when telemetry may record: providers given in `options`, or a host that has
 * registered OpenTelemetry. A process without OpenTelemetry never loads it (import time). The SDK
 * awaits this in `Agent.create` and `sessionAsync`; register your OpenTelemetry SDK before them.
 */
export async function preloadOpenTelemetry(options?: TelemetryOptions): Promise<void> {
  if (loaded !== null || options?.enabled === false) return;
  if (options?.tracerProvider !== undefined || options?.meterProvider !== undefined || hostRegisteredOpenTelemetry()) await loadOtelApi();
}
