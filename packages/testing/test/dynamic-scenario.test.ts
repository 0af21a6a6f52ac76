import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import {
  lastUserText,
  startScriptedModelServer,
  systemPromptOf,
  textResponse,
  toolCallResponse,
  toolNamesOf,
  toolResultsOf,
} from '../src/index.js';
import type { RecordedRequest, ScriptedModelServer, ScriptedResponse } from '../src/index.js';

let server: ScriptedModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A tiny "model": asks for one tool, then answers with what the tool returned. */
function echoToolResult(request: RecordedRequest): ScriptedResponse {
  const result = toolResultsOf(request).at(-1);
  if (result === undefined) return toolCallResponse('read', { file_path: lastUserText(request) });
  return textResponse(`${result.isError ? 'error' : 'ok'}: ${result.content} (tools: ${toolNamesOf(request).join(',')}; system: ${systemPromptOf(request)})`);
}

describe('scenario functions answer from the request', () => {
  it('drives a two-turn Anthropic tool loop', async () => {
    server = await startScriptedModelServer({ scenario: echoToolResult });
    const anthropic = new Anthropic({ apiKey: 'k', baseURL: server.anthropicBaseUrl, maxRetries: 0 });
    const tools = [{ name: 'read', description: 'read a file', input_schema: { type: 'object' as const, properties: {} } }];
    const base = { model: 'claude-test', max_tokens: 256, system: 'sys', tools };
    const first = await anthropic.messages.stream({ ...base, messages: [{ role: 'user', content: 'notes.md' }] }).finalMessage();
    const call = first.content.find((block) => block.type === 'tool_use');
    expect(call).toMatchObject({ name: 'read', input: { file_path: 'notes.md' } });
    const second = await anthropic.messages.create({
      ...base,
      messages: [
        { role: 'user', content: 'notes.md' },
        { role: 'assistant', content: first.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: call?.type === 'tool_use' ? call.id : '', content: [{ type: 'text', text: 'hello' }], is_error: true }] },
      ],
    });
    expect(second.content).toEqual([{ type: 'text', text: 'error: hello (tools: read; system: sys)' }]);
  });

  it('drives a two-turn OpenAI tool loop', async () => {
    server = await startScriptedModelServer({ scenario: echoToolResult });
    const openai = new OpenAI({ apiKey: 'k', baseURL: server.openaiBaseUrl, maxRetries: 0 });
    const tools = [{ type: 'function' as const, function: { name: 'read', parameters: { type: 'object', properties: {} } } }];
    const system = { role: 'system' as const, content: 'sys' };
    const first = await openai.chat.completions.stream({ model: 'gpt-test', tools, messages: [system, { role: 'user', content: 'notes.md' }] }).finalChatCompletion();
    const message = first.choices[0]?.message;
    const call = message?.tool_calls?.[0];
    expect(call?.type === 'function' ? JSON.parse(call.function.arguments) : undefined).toEqual({ file_path: 'notes.md' });
    const second = await openai.chat.completions.create({
      model: 'gpt-test',
      tools,
      messages: [
        system,
        { role: 'user', content: 'notes.md' },
        { role: 'assistant', content: null, tool_calls: message?.tool_calls ?? [] },
        { role: 'tool', tool_call_id: call?.id ?? '', content: 'hello' },
      ],
    });
    expect(second.choices[0]?.message.content).toBe('ok: hello (tools: read; system: sys)');
    expect(server.requests.map((request) => request.scenarioIndex)).toEqual([0, 1]);
  });
});
