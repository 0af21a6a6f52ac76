// The client reads no environment variable: the SDK's createLlmClient resolves OPENAI_API_KEY from
// the agent's environment, a direct caller passes apiKey (the same as every provider client).
import { CodeError } from '@a3s-lab/code-core';
import { startScriptedModelServer, textResponse } from '@a3s-lab/code-testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createOpenAIClient } from '../src/index.js';

const saved = process.env['OPENAI_API_KEY'];
afterEach(() => {
  if (saved === undefined) delete process.env['OPENAI_API_KEY'];
  else process.env['OPENAI_API_KEY'] = saved;
});

describe('createOpenAIClient API key', () => {
  it('refuses api.openai.com without apiKey even when OPENAI_API_KEY is set in process.env', () => {
    process.env['OPENAI_API_KEY'] = 'sk-from-process-env-0000';
    let error: unknown;
    try {
      createOpenAIClient({ model: 'gpt-4o' });
    } catch (caught) {
      error = caught;
    }
    expect(CodeError.isInstance(error) && error.code).toBe('CONFIG_ERROR');
  });

  it('sends the placeholder, not process.env, to a custom baseURL without apiKey', async () => {
    process.env['OPENAI_API_KEY'] = 'sk-from-process-env-0000';
    const server = await startScriptedModelServer();
    try {
      server.setScenario([textResponse('hi')]);
      const llm = createOpenAIClient({ baseURL: server.openaiBaseUrl, model: 'gpt-test' });
      for await (const event of llm.stream({ system: 's', tools: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] })) void event;
      expect(server.requests[0]?.headers['authorization']).toBe('Bearer no-api-key');
    } finally {
      await server.close();
    }
  });
});
