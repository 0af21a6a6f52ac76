import assert from 'node:assert/strict';
import { CodeError } from '@a3s-lab/code-core';
import type { LlmCallOptions, LlmClient, LlmRequest, LlmStreamEvent } from '@a3s-lab/code-core';
import { errorResponse, hangResponse, malformedToolCallResponse, textResponse } from './scenario/scenario-helpers.js';
import type { ScriptedModelServer } from './server/scripted-model-server.js';

/** What {@link llmClientContract} needs to know about one provider client. */
export interface LlmClientContractSubject {
  /** Provider id the client reports in errors (`anthropic`, `openai`). */
  readonly provider: string;
  /** The API key the client is created with; it must never show in an error. */
  readonly apiKey: string;
  /** Creates the client against `server` (its base URL for this wire protocol). */
  createClient(server: ScriptedModelServer, options: { readonly maxRetries?: number }): LlmClient;
  /** Prefix of tool-call ids on this wire (`toolu_`, `call_`). */
  readonly toolCallIdPrefix: string;
  /** `retryReason` of an error event inside a stream (`stream_error:overloaded_error`). */
  readonly inStreamErrorReason: string;
  /** Events after which the scripted in-stream error is sent (the first text delta is out). */
  readonly inStreamErrorAfterEvents: number;
  /** A 400 message of this provider that means the prompt is over the context window. */
  readonly contextOverflowMessage: string;
}

/** One behaviour every provider client must have, runnable from any test runner. */
export interface LlmClientContractCase {
  readonly name: string;
  /** Runs against a fresh scripted server; throws (an `AssertionError`) on a violation. */
  run(server: ScriptedModelServer): Promise<void>;
}

const readTool = { name: 'read', description: 'Read a file', parameters: { type: 'object', properties: { file_path: { type: 'string' } }, required: ['file_path'] } };
const simple: LlmRequest = { system: 'You are terse.', messages: [{ role: 'user', content: [{ type: 'text', text: 'read a.ts' }] }], tools: [readTool] };

async function collect(stream: AsyncIterable<LlmStreamEvent>): Promise<LlmStreamEvent[]> {
  const events: LlmStreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

async function failureOf(llm: LlmClient, options?: LlmCallOptions): Promise<{ error: unknown; events: LlmStreamEvent[] }> {
  const events: LlmStreamEvent[] = [];
  try {
    for await (const event of llm.stream(simple, options)) events.push(event);
  } catch (error) {
    return { error, events };
  }
  throw new assert.AssertionError({ message: `expected the stream to fail; got ${JSON.stringify(events)}` });
}

function codeErrorOf(error: unknown): CodeError {
  assert.ok(CodeError.isInstance(error), `expected a CodeError, got ${String(error)}`);
  return error;
}

/** Asserts that every key of `expected` has that value in `actual`. */
function assertFields(actual: Readonly<Record<string, unknown>>, expected: Readonly<Record<string, unknown>>): void {
  for (const [key, value] of Object.entries(expected)) assert.deepEqual(actual[key], value, `details.${key}`);
}

const attemptStarts = (events: readonly LlmStreamEvent[]) => events.filter((event) => event.type === 'attempt_start');

/**
 * The behaviour every `LlmClient` over a provider SDK must have, against the scripted model
 * server: retries (429 with `retry-after`, 5xx, an error inside the stream, a stream cut in the
 * middle of tool input), no retry of a 400, context-overflow flagging, giving up after
 * `maxRetries` without showing the API key, malformed tool input, the call deadline and the
 * caller's abort. Each case is a plain async function, so vitest (`it(case.name, ...)`) and
 * `node:test` (`test(case.name, ...)`) both run it.
 */
export function llmClientContract(subject: LlmClientContractSubject): readonly LlmClientContractCase[] {
  const { provider, apiKey } = subject;
  const client = (server: ScriptedModelServer, maxRetries?: number) => subject.createClient(server, maxRetries === undefined ? {} : { maxRetries });
  return [
    {
      name: 'reports malformed tool input as invalidInput and keeps streaming',
      async run(server) {
        const id = `${subject.toolCallIdPrefix}bad`;
        server.setScenario([malformedToolCallResponse('read', '{"file_path": "a.ts"', { id })]);
        const events = await collect(client(server).stream(simple));
        assert.deepEqual(
          events.find((event) => event.type === 'tool_call_end'),
          { type: 'tool_call_end', id, name: 'read', input: undefined, invalidInput: '{"file_path": "a.ts"' },
        );
        assert.equal(events.at(-1)?.type, 'message_end');
        assert.equal((events.at(-1) as { stopReason?: string }).stopReason, 'tool_use');
      },
    },
    {
      name: 'retries a 429 after the retry-after the server asked for',
      async run(server) {
        server.setScenario([errorResponse(429, { retryAfterMs: 400 }), textResponse('ok')]);
        const events = await collect(client(server).stream(simple));
        assert.deepEqual(attemptStarts(events), [
          { type: 'attempt_start', attempt: 1 },
          { type: 'attempt_start', attempt: 2, retryReason: 'http_429' },
        ]);
        assert.deepEqual((events.at(-1) as { content?: unknown }).content, [{ type: 'text', text: 'ok' }]);
        assert.equal(server.requests.length, 2);
        const [first, second] = server.requests;
        // The wait is the header's, not the 250-500 ms first backoff step: at least ~400 ms apart.
        assert.ok((second?.receivedAtMs ?? 0) - (first?.receivedAtMs ?? 0) >= 350, 'retry-after honoured');
      },
    },
    {
      name: 'retries a 529 and an error inside the stream',
      async run(server) {
        server.setScenario([errorResponse(529), { text: 'partial', streamError: { afterEvents: subject.inStreamErrorAfterEvents } }, textResponse('fine')]);
        const events = await collect(client(server).stream(simple));
        assert.deepEqual(attemptStarts(events), [
          { type: 'attempt_start', attempt: 1 },
          { type: 'attempt_start', attempt: 2, retryReason: 'http_529' },
          { type: 'attempt_start', attempt: 3, retryReason: subject.inStreamErrorReason },
        ]);
        assert.deepEqual((events.at(-1) as { content?: unknown }).content, [{ type: 'text', text: 'fine' }]);
        assert.equal(server.requests.length, 3);
      },
    },
    {
      name: 'does not retry a 400 and reports it as LLM_ERROR with status and request id',
      async run(server) {
        server.setScenario([errorResponse(400, { message: 'bad messages' }), textResponse('never')]);
        const { error, events } = await failureOf(client(server));
        assert.deepEqual(events, [{ type: 'attempt_start', attempt: 1 }]);
        const failure = codeErrorOf(error);
        assert.equal(failure.code, 'LLM_ERROR');
        assertFields(failure.details, { provider, status: 400, retryable: false, attempts: 1, requestId: 'req_scripted_1' });
        assert.equal(server.requests.length, 1);
        assert.equal(server.remaining(), 1);
      },
    },
    {
      name: 'flags a context-overflow 400 as contextOverflow (so the session can compact and retry); a plain 400 is not',
      async run(server) {
        server.setScenario([errorResponse(400, { message: subject.contextOverflowMessage })]);
        assertFields(codeErrorOf((await failureOf(client(server))).error).details, { provider, status: 400, retryable: false, contextOverflow: true });
        server.setScenario([errorResponse(400, { message: 'bad messages' })]);
        assert.equal(codeErrorOf((await failureOf(client(server))).error).details['contextOverflow'], undefined);
      },
    },
    {
      name: 'gives up after maxRetries and never shows the API key',
      async run(server) {
        server.setScenario([errorResponse(500, { message: `upstream echoed ${apiKey}` }), errorResponse(500), errorResponse(500)]);
        assertFields(codeErrorOf((await failureOf(client(server, 1))).error).details, { status: 500, retryable: true, attempts: 2 });
        assert.equal(server.requests.length, 2);
        server.setScenario([errorResponse(500, { message: `upstream echoed ${apiKey}` })]);
        const first = codeErrorOf((await failureOf(client(server, 0))).error);
        assert.ok(!first.message.includes(apiKey), 'message shows the API key');
        assert.ok(!String((first.cause as Error | undefined)?.message).includes(apiKey), 'cause shows the API key');
      },
    },
    {
      name: 'retries a stream cut in the middle of tool input and completes the second attempt',
      async run(server) {
        const call = { id: `${subject.toolCallIdPrefix}cut`, name: 'read', input: { file_path: 'src/very/long/path/name.ts' } };
        server.setScenario([{ toolCalls: [call], toolInputChunks: 6, cutMidToolInput: true }, { toolCalls: [call], toolInputChunks: 6 }]);
        const events = await collect(client(server).stream(simple));
        const secondStart = events.findIndex((event) => event.type === 'attempt_start' && event.attempt === 2);
        assert.deepEqual(events[secondStart], { type: 'attempt_start', attempt: 2, retryReason: 'stream_interrupted' });
        const firstAttempt = events.slice(0, secondStart).map((event) => event.type);
        assert.ok(firstAttempt.includes('tool_call_delta') && !firstAttempt.includes('tool_call_end'), `first attempt: ${firstAttempt.join(', ')}`);
        const secondAttempt = events.slice(secondStart + 1);
        assert.equal(secondAttempt.flatMap((event) => (event.type === 'tool_call_delta' ? [event.partialJson] : [])).join(''), JSON.stringify(call.input));
        assert.deepEqual(secondAttempt.at(-2), { type: 'tool_call_end', id: call.id, name: 'read', input: call.input });
        assert.equal((secondAttempt.at(-1) as { stopReason?: string }).stopReason, 'tool_use');
        assert.equal(server.requests.length, 2);
      },
    },
    {
      name: 'ends a hung provider at timeoutMs with LLM_ERROR { timeout: true }',
      async run(server) {
        server.setScenario([hangResponse()]);
        const failure = codeErrorOf((await failureOf(client(server), { timeoutMs: 600 })).error);
        assert.equal(failure.code, 'LLM_ERROR');
        assertFields(failure.details, { provider, timeout: true, timeoutMs: 600 });
        assert.equal(server.requests.length, 1);
      },
    },
    {
      name: 'ends quietly with an AbortError when the caller aborts mid-stream',
      async run(server) {
        server.setScenario([{ text: ['a', 'b', 'c', 'd'], chunkDelayMs: 150 }]);
        const controller = new AbortController();
        const seen: LlmStreamEvent[] = [];
        let caught: unknown;
        try {
          for await (const event of client(server).stream(simple, { abortSignal: controller.signal })) {
            seen.push(event);
            if (event.type === 'text_delta') controller.abort();
          }
        } catch (error) {
          caught = error;
        }
        assert.equal((caught as Error | undefined)?.name, 'AbortError');
        assert.deepEqual(seen.map((event) => event.type), ['attempt_start', 'text_delta']);
        assert.equal(server.requests.length, 1);
      },
    },
  ];
}
