import type { MeterProvider, TracerProvider } from '@opentelemetry/api';
import { CodeError } from '../errors/code-error.js';

/**
 * Session option `telemetry` (and `Agent.create({ telemetry })`): OpenTelemetry traces and
 * metrics of runs, model calls and tool calls in the GenAI semantic conventions. The SDK depends
 * on `@opentelemetry/api` only: the host registers its SDK and exporter.
 */
export interface TelemetryOptions {
  /** false = no spans and no metrics at all (default true: the host's providers, when it registered any). */
  readonly enabled?: boolean;
  /**
   * Record prompts, model output, tool arguments and tool output in span attributes (default
   * false). When true they are redacted by the session's security provider exactly like events.
   */
  readonly captureContent?: boolean;
  /** Where spans go; default the global provider (`trace.setGlobalTracerProvider`, NodeSDK). */
  readonly tracerProvider?: TracerProvider;
  /** Where metrics go; default the global provider (`metrics.setGlobalMeterProvider`, NodeSDK). */
  readonly meterProvider?: MeterProvider;
}

/** The parts of {@link TelemetryOptions} that are JSON (ACL `telemetry { enabled  capture_content }`). */
export const TELEMETRY_PROVIDER_KEYS = ['tracerProvider', 'meterProvider'] as const;

/**
 * Checks the provider objects the JSON schema cannot (an object with `getTracer` / `getMeter`).
 * SESSION_CONFIGURATION_ERROR names the field.
 */
export function checkTelemetryProviders(telemetry: Readonly<Record<string, unknown>> | undefined): void {
  if (telemetry === undefined) return;
  const check = (key: string, method: string): void => {
    const value = telemetry[key] as Record<string, unknown> | null | undefined;
    if (value === undefined) return;
    if (typeof value !== 'object' || value === null || typeof value[method] !== 'function') {
      throw new CodeError('SESSION_CONFIGURATION_ERROR', `invalid session option 'telemetry.${key}': expected an OpenTelemetry ${key === 'tracerProvider' ? 'TracerProvider' : 'MeterProvider'} (with ${method}()), got ${value === null ? 'null' : typeof value}`, {
        details: { field: `telemetry.${key}`, expected: `an object with ${method}()` },
      });
    }
  };
  check('tracerProvider', 'getTracer');
  check('meterProvider', 'getMeter');
}

/** `telemetry` with the provider objects left out: what a snapshot keeps. */
export function jsonTelemetryOptions(telemetry: TelemetryOptions | undefined): { enabled?: boolean; captureContent?: boolean } | undefined {
  if (telemetry === undefined) return undefined;
  return {
    ...(telemetry.enabled === undefined ? {} : { enabled: telemetry.enabled }),
    ...(telemetry.captureContent === undefined ? {} : { captureContent: telemetry.captureContent }),
  };
}
