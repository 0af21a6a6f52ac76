import { createRequire } from 'node:module';
import { boundUtf8HeadTail, requireOnce, utf8ByteLength } from '@a3s-lab/code-core/util';
import { isGenerationService } from '@a3s-lab/code-core/kernel';
import { CodeError, defineTool } from '@a3s-lab/code-core';
import type { GenerationService } from '@a3s-lab/code-core/kernel';
import type { FromJsonSchema, LlmMessage, LlmRequest, Tool, ToolContext, ToolOutput, ToolParametersSchema } from '@a3s-lab/code-core';
import { compileObjectSchema } from './object-schema.js';
import type { ObjectSchema } from './object-schema.js';
import { invalidArgument } from './tool-support.js';

/** `partial-json`, loaded by the first streamed object preview rather than at import. */
const partialJsonModule = requireOnce<typeof import('partial-json')>(createRequire(import.meta.url), 'partial-json');

/** Modes of `generate_object`; `auto`, `strict` and `json` resolve to `tool`. */
export const GENERATE_OBJECT_MODES = ['tool', 'prompt', 'auto', 'strict', 'json'] as const;
/** Default and bounds of `max_repair_attempts`. */
export const DEFAULT_REPAIR_ATTEMPTS = 2;
export const MAX_REPAIR_ATTEMPTS = 5;
/** At most one partial-object event per this many ms. */
export const PARTIAL_OBJECT_INTERVAL_MS = 100;
/** Partial objects larger than this are reported as byte counts instead of values. */
export const PARTIAL_OBJECT_EVENT_BYTES = 16_384;

/** The JSON Schema of `generate_object`'s arguments (`instructions`: extra instructions such as style or language). */
const PARAMETERS = {
  type: 'object',
  additionalProperties: false,
  required: ['schema', 'prompt'],
  properties: {
    schema: { type: 'object', description: 'JSON Schema (draft-07; 2020-12 via $schema).' },
    prompt: { type: 'string', minLength: 1, maxLength: 200_000, description: 'What to generate, with its input.' },
    schema_name: { type: 'string', pattern: '^[a-zA-Z0-9_-]{1,64}$' },
    mode: { enum: [...GENERATE_OBJECT_MODES] },
    max_repair_attempts: { type: 'integer', minimum: 0, maximum: MAX_REPAIR_ATTEMPTS },
    instructions: { type: 'string', maxLength: 20_000 },
  },
} as const satisfies ToolParametersSchema;

/** Arguments of `generate_object`, read from its schema. */
type GenerateObjectArgs = FromJsonSchema<typeof PARAMETERS>;

const SYSTEM = 'You produce one JSON value that matches the given JSON Schema exactly. Use only the information given. No commentary.';

/**
 * `generate_object`: asks the session's model for a JSON object matching a schema, validates it
 * (Ajv) and repairs by feeding the validation errors back (0-5 attempts). Exit 0 returns
 * `{"object": ...}`; otherwise a typed failure with the last errors. In `tool` mode the schema
 * becomes a forced synthetic tool and the partial object streams as `tool_output_delta`
 * (`{"object_partial": ...}`, at most every 100 ms).
 */
export function createGenerateObjectTool(): Tool<GenerateObjectArgs> {
  return defineTool({
    name: 'generate_object',
    description: 'Generate a JSON object that matches a JSON Schema (validated, with automatic repair). Returns {"object": ...}.',
    parameters: PARAMETERS,
    capabilities: () => ({ readOnly: true, idempotent: false, cancellationSafe: true, outputKind: 'structured' }),
    async execute(args, context) {
      const generation = context.services['generation'];
      if (!isGenerationService(generation)) throw new CodeError('TOOL_ERROR', 'generate_object needs the session model, which this session does not provide', { details: { errorKind: { type: 'unsupported', message: 'no generation service' } } });
      let schema: ObjectSchema;
      try {
        schema = compileObjectSchema(args.schema);
      } catch (error) {
        return invalidArgument(error instanceof Error ? error.message : String(error));
      }
      const mode = args.mode === 'prompt' ? 'prompt' : 'tool';
      return generateObject(generation, schema, { ...args, name: args.schema_name ?? 'result', mode, attempts: 1 + (args.max_repair_attempts ?? DEFAULT_REPAIR_ATTEMPTS) }, context);
    },
  });
}

type Plan = Omit<GenerateObjectArgs, 'mode'> & {
  readonly name: string;
  readonly mode: 'tool' | 'prompt';
  readonly attempts: number;
};

async function generateObject(generation: GenerationService, schema: ObjectSchema, plan: Plan, context: ToolContext): Promise<ToolOutput> {
  const messages: LlmMessage[] = [{ role: 'user', content: [{ type: 'text', text: userPrompt(plan, schema) }] }];
  let errors: string[] = [];
  let lastOutput = '';
  for (let attempt = 1; attempt <= plan.attempts; attempt += 1) {
    const answer = await oneAttempt(generation, schema, plan, messages, context);
    lastOutput = answer.raw;
    errors = answer.error === undefined ? schema.validate(answer.value) : [answer.error];
    if (errors.length === 0) {
      const output = JSON.stringify({ object: answer.value });
      return { output, metadata: { generate_object: { schema_name: plan.name, mode: plan.mode, attempts: attempt } } };
    }
    if (attempt === plan.attempts) break;
    // Repair: the model sees what it produced and exactly what was wrong.
    messages.push(answer.assistant, repairMessage(plan, answer, errors));
  }
  const message = `generate_object: no valid '${plan.name}' after ${plan.attempts} attempt(s): ${errors.join('; ')}`;
  return {
    output: message,
    exitCode: 1,
    errorKind: { type: 'invalid_argument', message },
    metadata: { generate_object: { schema_name: plan.name, mode: plan.mode, attempts: plan.attempts, errors, last_output: boundUtf8HeadTail(lastOutput, 4096).text } },
  };
}

interface Answer {
  readonly value: unknown;
  readonly raw: string;
  readonly error?: string;
  readonly assistant: LlmMessage;
  readonly callId?: string;
}

async function oneAttempt(generation: GenerationService, schema: ObjectSchema, plan: Plan, messages: readonly LlmMessage[], context: ToolContext): Promise<Answer> {
  const request: LlmRequest =
    plan.mode === 'tool'
      ? { system: SYSTEM, messages, tools: [{ name: plan.name, description: `Submit the ${plan.name} object.`, parameters: schema.parameters }], toolChoice: { type: 'tool', name: plan.name } }
      : { system: SYSTEM, messages, tools: [] };
  let text = '';
  let partial = '';
  let lastEmit = 0;
  let call: { id: string; input: unknown; invalid?: string } | undefined;
  let content: LlmMessage['content'] = [];
  for await (const event of generation.stream(request, { signal: context.abortSignal, purpose: 'generate_object' })) {
    if (event.type === 'attempt_start' && event.attempt > 1) {
      text = '';
      partial = '';
    } else if (event.type === 'text_delta') text += event.text;
    else if (event.type === 'tool_call_delta') {
      partial += event.partialJson;
      const now = Date.now();
      if (now - lastEmit >= PARTIAL_OBJECT_INTERVAL_MS) {
        lastEmit = now;
        emitPartial(partial, schema, context);
      }
    } else if (event.type === 'tool_call_end') call = { id: event.id, input: event.input, ...(event.invalidInput === undefined ? {} : { invalid: event.invalidInput }) };
    else if (event.type === 'message_end') content = event.content;
  }
  const assistant: LlmMessage = { role: 'assistant', content: content.length > 0 ? content : [{ type: 'text', text: text || '(no output)' }] };
  if (plan.mode === 'tool') {
    if (call === undefined) return { value: undefined, raw: text, error: `/: the model did not call '${plan.name}'`, assistant };
    if (call.invalid !== undefined) return { value: undefined, raw: call.invalid, error: '/: the arguments were not valid JSON', assistant, callId: call.id };
    const value = schema.wrapped ? (call.input as Record<string, unknown> | undefined)?.['value'] : call.input;
    return { value, raw: JSON.stringify(call.input), assistant, callId: call.id };
  }
  const json = extractJson(text);
  if (json === undefined) return { value: undefined, raw: text, error: '/: the answer contained no JSON value', assistant };
  try {
    return { value: JSON.parse(json), raw: json, assistant };
  } catch (error) {
    return { value: undefined, raw: json, error: `/: invalid JSON (${error instanceof Error ? error.message : String(error)})`, assistant };
  }
}

function emitPartial(partial: string, schema: ObjectSchema, context: ToolContext): void {
  let value: unknown;
  try {
    const { parse, Allow } = partialJsonModule();
    value = parse(partial, Allow.ALL);
  } catch {
    return;
  }
  if (schema.wrapped) value = (value as Record<string, unknown> | undefined)?.['value'];
  const payload = JSON.stringify({ object_partial: value });
  const bytes = utf8ByteLength(payload);
  context.emitOutputDelta(bytes <= PARTIAL_OBJECT_EVENT_BYTES ? payload : JSON.stringify({ object_partial_bytes: utf8ByteLength(partial) }));
}

function userPrompt(plan: Plan, schema: ObjectSchema): string {
  const extra = plan.instructions === undefined ? '' : `\n\n${plan.instructions}`;
  if (plan.mode === 'tool') return `${plan.prompt}${extra}\n\nCall the '${plan.name}' tool with the result.`;
  const shape = schema.wrapped ? (schema.parameters['properties'] as Record<string, unknown>)['value'] : schema.parameters;
  return `${plan.prompt}${extra}\n\nAnswer with only a JSON value (no prose, no code fence) matching this JSON Schema:\n${JSON.stringify(shape)}`;
}

function repairMessage(plan: Plan, answer: Answer, errors: readonly string[]): LlmMessage {
  const text = `That ${plan.name} does not match the schema:\n${errors.map((e) => `- ${e}`).join('\n')}\nProduce it again, corrected.`;
  if (answer.callId !== undefined) return { role: 'user', content: [{ type: 'tool_result', toolCallId: answer.callId, content: text, isError: true }] };
  return { role: 'user', content: [{ type: 'text', text }] };
}

/** The JSON value in a model's text: the whole text, a fenced block, or the outermost braces/brackets. */
function extractJson(text: string): string | undefined {
  const trimmed = text.trim();
  const fenced = /```(?:json)?\s*([\s\S]*?)```/.exec(trimmed);
  if (fenced?.[1] !== undefined) return fenced[1].trim();
  if (trimmed.startsWith('{') || trimmed.startsWith('[') || trimmed.startsWith('"') || /^(-?\d|true|false|null)/.test(trimmed)) return trimmed;
  const start = trimmed.search(/[[{]/);
  if (start === -1) return undefined;
  const end = Math.max(trimmed.lastIndexOf('}'), trimmed.lastIndexOf(']'));
  return end > start ? trimmed.slice(start, end + 1) : undefined;
}
