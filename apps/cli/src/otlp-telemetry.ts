// OTLP/HTTP export of the CLI's spans (issue 33): when the standard OpenTelemetry variables name
// an endpoint, the CLI registers a global tracer provider whose batches go there, and flushes it
// before the process exits. The exporter and the SDK are imported only then: a run without the
// variables loads neither.

/** The CLI's registered provider; `shutdown` flushes what is batched and unregisters it. */
export interface CliTelemetry {
  readonly url: string;
  shutdown(): Promise<void>;
}

/**
 * The traces URL the environment names: `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` as is, else
 * `OTEL_EXPORTER_OTLP_ENDPOINT` + `/v1/traces`; `undefined` when neither is set, or when
 * `OTEL_SDK_DISABLED=true` / `OTEL_TRACES_EXPORTER=none`.
 */
export function otlpTracesUrl(env: Readonly<Record<string, string | undefined>>): string | undefined {
  if (env['OTEL_SDK_DISABLED']?.trim().toLowerCase() === 'true' || env['OTEL_TRACES_EXPORTER']?.trim().toLowerCase() === 'none') return undefined;
  const traces = env['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT']?.trim();
  if (traces !== undefined && traces !== '') return traces;
  const base = env['OTEL_EXPORTER_OTLP_ENDPOINT']?.trim();
  if (base === undefined || base === '') return undefined;
  return `${base.replace(/\/+$/, '')}/v1/traces`;
}

/** Starts OTLP/HTTP export when the environment asks for it; `null` otherwise. */
export async function startOtlpTelemetry(env: Readonly<Record<string, string | undefined>>): Promise<CliTelemetry | null> {
  const url = otlpTracesUrl(env);
  if (url === undefined) return null;
  const [{ trace }, { BatchSpanProcessor, TracerProvider }, { OTLPTraceExporter }] = await Promise.all([
    import('@opentelemetry/api'),
    import('@opentelemetry/sdk-trace'),
    import('@opentelemetry/exporter-trace-otlp-http'),
  ]);
  const provider = new TracerProvider({ spanProcessors: [new BatchSpanProcessor({ exporter: new OTLPTraceExporter({ url }) })] });
  trace.setGlobalTracerProvider(provider);
  return {
    url,
    async shutdown(): Promise<void> {
      try {
        await provider.shutdown();
      } catch {
        // An unreachable collector must not change the run's exit code.
      } finally {
        trace.disable();
      }
    },
  };
}
