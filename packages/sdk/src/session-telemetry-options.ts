import { resolveSessionOptions } from '@a3s-lab/code-runtime';
import type { TelemetryOptions } from '@a3s-lab/code-core';

/**
 * The `telemetry` a session runs with: the ACL block (`telemetry { enabled  capture_content }`),
 * then `Agent.create({ telemetry })`, then the session's own option, field by field (a session
 * that sets only `captureContent` keeps the agent's providers). `undefined` when none sets it.
 */
export function mergeTelemetryOptions(...layers: readonly (TelemetryOptions | undefined)[]): TelemetryOptions | undefined {
  let merged: TelemetryOptions | undefined;
  for (const layer of layers) {
    if (layer === undefined) continue;
    const defined = Object.fromEntries(Object.entries(layer).filter(([, value]) => value !== undefined)) as TelemetryOptions;
    merged = { ...merged, ...defined };
  }
  return merged;
}

/**
 * Checks `Agent.create({ telemetry })` when the agent is created, not at its first session:
 * SESSION_CONFIGURATION_ERROR names the field (an unknown key, a non-boolean switch, a provider
 * without `getTracer` / `getMeter`).
 */
export function checkAgentTelemetry(telemetry: unknown): void {
  if (telemetry !== undefined) resolveSessionOptions({ telemetry });
}
