import type { Histogram, MeterProvider, Tracer, TracerProvider } from '@opentelemetry/api';
import { DURATION_BUCKETS, INSTRUMENTATION_NAME, METRIC_OPERATION_DURATION, METRIC_TOKEN_USAGE, METRIC_TOOL_DURATION, TOKEN_BUCKETS } from './gen-ai-attributes.js';
import { otelApi, VALUE_TYPE_INT } from './otel-api.js';

/** The histograms of one meter provider. */
export interface TelemetryInstruments {
  readonly tokenUsage: Histogram;
  readonly operationDuration: Histogram;
  readonly toolDuration: Histogram;
}

const instrumentsByProvider = new WeakMap<MeterProvider, TelemetryInstruments | null>();
let noopMeterPrototype: unknown;

/**
 * The tracer to use now: the explicit provider's, else the global one's — `null` while no global
 * provider is registered (or the API is not loaded), so a process without OpenTelemetry builds no
 * spans at all. Read at each run start: a host may register its SDK after creating the agent.
 */
export function resolveTracer(explicit: TracerProvider | undefined): Tracer | null {
  const api = otelApi();
  if (api === null) return null;
  if (explicit !== undefined) return explicit.getTracer(INSTRUMENTATION_NAME);
  const global = api.trace.getTracerProvider();
  if (global instanceof api.ProxyTracerProvider) return global.getDelegateTracer(INSTRUMENTATION_NAME) ?? null;
  return global.getTracer(INSTRUMENTATION_NAME);
}

/** The histograms of the explicit or global meter provider; `null` for the no-op provider. */
export function resolveInstruments(explicit: MeterProvider | undefined): TelemetryInstruments | null {
  const api = otelApi();
  if (api === null) return null;
  const provider = explicit ?? api.metrics.getMeterProvider();
  const known = instrumentsByProvider.get(provider);
  if (known !== undefined) return known;
  const meter = provider.getMeter(INSTRUMENTATION_NAME);
  noopMeterPrototype ??= Object.getPrototypeOf(api.createNoopMeter());
  const instruments =
    Object.getPrototypeOf(meter) === noopMeterPrototype
      ? null
      : {
          tokenUsage: meter.createHistogram(METRIC_TOKEN_USAGE, { description: 'Number of input and output tokens used', unit: '{token}', valueType: VALUE_TYPE_INT, advice: { explicitBucketBoundaries: TOKEN_BUCKETS } }),
          operationDuration: meter.createHistogram(METRIC_OPERATION_DURATION, { description: 'GenAI operation duration', unit: 's', advice: { explicitBucketBoundaries: DURATION_BUCKETS } }),
          toolDuration: meter.createHistogram(METRIC_TOOL_DURATION, { description: 'Duration of tool calls through the invocation kernel, by tool and outcome', unit: 's', advice: { explicitBucketBoundaries: DURATION_BUCKETS } }),
        };
  instrumentsByProvider.set(provider, instruments);
  return instruments;
}
