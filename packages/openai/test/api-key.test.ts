// The client reads no environment variable: the SDK's createLlmClient resolves OPENAI_API_KEY from
// the agent's environment, a direct caller passes apiKey (the same as every provider client).
import { CodeError } from '@a3s-lab/code-core';
import { startScriptedModelServer, textResponse } from '@a3s-lab/code-testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createOpenAIClient } from '../src/index.js';

const VARIABLES = ['OPENAI_API_KEY', 'OPENAI_BASE_URL', 'OPENAI_ORG_ID', 'OPENAI_PROJECT_ID'] as const;
const saved = new Map(VARIABLES.map((name) => [name, process.env[name]]));
afterEach(() => {
  for (const [name, value] of saved) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
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

  it('sends the placeholder, not process.env, to a custom baseURL without apiKey; never follows OPENAI_BASE_URL / OPENAI_ORG_ID / OPENAI_PROJECT_ID', async () => {
    process.env['OPENAI_API_KEY'] = 'sk-from-process-env-0000';
    process.env['OPENAI_ORG_ID'] = 'org-from-process-env';
    process.env['OPENAI_PROJECT_ID'] = 'proj-from-process-env';
    const server = await startScriptedModelServer();
    const decoy = await startScriptedModelServer();
    try {
      process.env['OPENAI_BASE_URL'] = decoy.openaiBaseUrl;
      server.setScenario([textResponse('hi')]);
      const llm = createOpenAIClient({ baseURL: server.openaiBaseUrl, model: 'gpt-test' });
      for await (const event of llm.stream({ system: 's', tools: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] })) void event;
      expect(server.requests).toHaveLength(1);
      expect(server.requests[0]?.headers['authorization']).toBe('Bearer no-api-key');
      expect(server.requests[0]?.headers['openai-organization']).toBeUndefined();
      expect(server.requests[0]?.headers['openai-project']).toBeUndefined();
      expect(decoy.requests).toHaveLength(0);
    } finally {
      await Promise.all([server.close(), decoy.close()]);
    }
  });
});
