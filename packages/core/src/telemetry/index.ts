export type { TelemetryOptions } from './telemetry-options.js';
export { checkTelemetryProviders, jsonTelemetryOptions, TELEMETRY_PROVIDER_KEYS } from './telemetry-options.js';
export { SessionTelemetry, RunTrace } from './session-telemetry.js';
export type { SessionTelemetryInit } from './session-telemetry.js';
export { tracedLlmClient } from './traced-llm-client.js';
export type { KernelTelemetry, ToolTrace, TracedCall, ConfirmationAnswer } from './tool-trace.js';
export { hostRegisteredOpenTelemetry, loadOtelApi, otelApi, preloadOpenTelemetry } from './otel-api.js';
