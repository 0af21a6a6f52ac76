// Attribute, span and metric names of the OpenTelemetry GenAI semantic conventions (development
// status: the latest experimental version) plus our own under `a3s_code.*`. Without
// `OTEL_SEMCONV_STABILITY_OPT_IN=gen_ai_latest_experimental` the provider is also given under its
// v1.36 name `gen_ai.system`, for backends built on that version; with it, only the latest names.

export const INSTRUMENTATION_NAME = '@a3s-lab/code';

export const GEN_AI_OPERATION_NAME = 'gen_ai.operation.name';
export const GEN_AI_PROVIDER_NAME = 'gen_ai.provider.name';
/** The provider's name up to semantic conventions v1.36 (deprecated since; see the opt-in). */
export const GEN_AI_SYSTEM_LEGACY = 'gen_ai.system';
export const GEN_AI_AGENT_NAME = 'gen_ai.agent.name';
export const GEN_AI_CONVERSATION_ID = 'gen_ai.conversation.id';
export const GEN_AI_REQUEST_MODEL = 'gen_ai.request.model';
export const GEN_AI_REQUEST_MAX_TOKENS = 'gen_ai.request.max_tokens';
export const GEN_AI_RESPONSE_MODEL = 'gen_ai.response.model';
export const GEN_AI_RESPONSE_FINISH_REASONS = 'gen_ai.response.finish_reasons';
export const GEN_AI_USAGE_INPUT_TOKENS = 'gen_ai.usage.input_tokens';
export const GEN_AI_USAGE_OUTPUT_TOKENS = 'gen_ai.usage.output_tokens';
export const GEN_AI_USAGE_CACHE_READ_TOKENS = 'gen_ai.usage.cache_read.input_tokens';
export const GEN_AI_USAGE_CACHE_CREATION_TOKENS = 'gen_ai.usage.cache_creation.input_tokens';
export const GEN_AI_TOKEN_TYPE = 'gen_ai.token.type';
export const GEN_AI_TOOL_NAME = 'gen_ai.tool.name';
export const GEN_AI_TOOL_CALL_ID = 'gen_ai.tool.call.id';
export const GEN_AI_TOOL_TYPE = 'gen_ai.tool.type';
export const GEN_AI_TOOL_CALL_ARGUMENTS = 'gen_ai.tool.call.arguments';
export const GEN_AI_TOOL_CALL_RESULT = 'gen_ai.tool.call.result';
export const GEN_AI_INPUT_MESSAGES = 'gen_ai.input.messages';
export const GEN_AI_OUTPUT_MESSAGES = 'gen_ai.output.messages';
export const GEN_AI_SYSTEM_INSTRUCTIONS = 'gen_ai.system_instructions';
export const ERROR_TYPE = 'error.type';

export const A3S_RUN_ID = 'a3s_code.run.id';
export const A3S_RUN_KIND = 'a3s_code.run.kind';
export const A3S_RUN_STATUS = 'a3s_code.run.status';
export const A3S_GENERATION_PURPOSE = 'a3s_code.generation.purpose';
export const A3S_ORIGIN = 'a3s_code.tool.origin';
export const A3S_PARENT_TOOL_CALL_ID = 'a3s_code.tool.parent_call_id';
export const A3S_PERMISSION_DECISION = 'a3s_code.permission.decision';
export const A3S_PERMISSION_RULE = 'a3s_code.permission.rule';
export const A3S_CONFIRMATION_ANSWER = 'a3s_code.confirmation.answer';
export const A3S_CONFIRMATION_WAIT_MS = 'a3s_code.confirmation.wait_ms';
export const A3S_BUDGET_DECISION = 'a3s_code.budget.decision';
export const A3S_EXIT_CODE = 'a3s_code.tool.exit_code';
export const A3S_OUTCOME = 'a3s_code.tool.outcome';
export const A3S_MCP_SERVER = 'a3s_code.mcp.server';

export const METRIC_TOKEN_USAGE = 'gen_ai.client.token.usage';
export const METRIC_OPERATION_DURATION = 'gen_ai.client.operation.duration';
export const METRIC_TOOL_DURATION = 'a3s_code.tool.duration';

/** Bucket boundaries the conventions recommend. */
export const TOKEN_BUCKETS = [1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864];
export const DURATION_BUCKETS = [0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92];

/** `gen_ai.provider.name` of one of our provider kinds (the well-known values of the conventions). */
export function providerName(provider: string): string {
  return provider === 'anthropic' ? 'anthropic' : provider === 'openai' ? 'openai' : provider;
}

/** MCP tools are named `mcp__<server>__<tool>`. */
export function mcpServerOf(toolName: string): string | undefined {
  if (!toolName.startsWith('mcp__')) return undefined;
  const end = toolName.indexOf('__', 5);
  return end > 5 ? toolName.slice(5, end) : undefined;
}

/** True unless `OTEL_SEMCONV_STABILITY_OPT_IN` lists `gen_ai_latest_experimental` (read when a session starts). */
export function emitsLegacyGenAi(): boolean {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  const optIn = env?.['OTEL_SEMCONV_STABILITY_OPT_IN'] ?? '';
  return !optIn.split(',').some((entry) => entry.trim() === 'gen_ai_latest_experimental');
}

/** `gen_ai.provider.name` (and, unless opted in to the latest conventions only, `gen_ai.system`). */
export function providerAttributes(provider: string, legacy: boolean): Record<string, string> {
  const name = providerName(provider);
  return legacy ? { [GEN_AI_PROVIDER_NAME]: name, [GEN_AI_SYSTEM_LEGACY]: name } : { [GEN_AI_PROVIDER_NAME]: name };
}
