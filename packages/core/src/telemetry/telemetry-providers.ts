import { createNoopMeter, metrics, ProxyTracerProvider, trace, ValueType } from '@opentelemetry/api';
import type { Histogram, MeterProvider, Tracer, TracerProvider } from '@opentelemetry/api';
import { DURATION_BUCKETS, INSTRUMENTATION_NAME, METRIC_OPERATION_DURATION, METRIC_TOKEN_USAGE, METRIC_TOOL_DURATION, TOKEN_BUCKETS } from './gen-ai-attributes.js';

/** The histograms of one meter provider. */
export interface TelemetryInstruments {
  readonly tokenUsage: Histogram;
  readonly operationDuration: Histogram;
  readonly toolDuration: Histogram;
}

const NOOP_METER_PROTOTYPE: unknown = Object.getPrototypeOf(createNoopMeter());
const instrumentsByProvider = new WeakMap<MeterProvider, TelemetryInstruments | null>();

/**
 * The tracer to use now: the explicit provider's, else the global one's — `null` while no global
 * provider is registered, so a process without OpenTelemetry builds no spans at all. Read at
 * each run start: a host may register its SDK after creating the agent.
 */
export function resolveTracer(explicit: TracerProvider | undefined): Tracer | null {
  if (explicit !== undefined) return explicit.getTracer(INSTRUMENTATION_NAME);
  const global = trace.getTracerProvider();
  if (global instanceof ProxyTracerProvider) return global.getDelegateTracer(INSTRUMENTATION_NAME) ?? null;
  return global.getTracer(INSTRUMENTATION_NAME);
}

/** The histograms of the explicit or global meter provider; `null` for the no-op provider. */
export function resolveInstruments(explicit: MeterProvider | undefined): TelemetryInstruments | null {
  const provider = explicit ?? metrics.getMeterProvider();
  const known = instrumentsByProvider.get(provider);
  if (known !== undefined) return known;
  const meter = provider.getMeter(INSTRUMENTATION_NAME);
  const instruments =
    Object.getPrototypeOf(meter) === NOOP_METER_PROTOTYPE
      ? null
      : {
          tokenUsage: meter.createHistogram(METRIC_TOKEN_USAGE, { description: 'Number of input and output tokens used', unit: '{token}', valueType: ValueType.INT, advice: { explicitBucketBoundaries: TOKEN_BUCKETS } }),
          operationDuration: meter.createHistogram(METRIC_OPERATION_DURATION, { description: 'GenAI operation duration', unit: 's', advice: { explicitBucketBoundaries: DURATION_BUCKETS } }),
          toolDuration: meter.createHistogram(METRIC_TOOL_DURATION, { description: 'Duration of tool calls through the invocation kernel, by tool and outcome', unit: 's', advice: { explicitBucketBoundaries: DURATION_BUCKETS } }),
        };
  instrumentsByProvider.set(provider, instruments);
  return instruments;
}
