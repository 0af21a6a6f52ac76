// The client reads no environment variable (the vendor SDK's own fallback is closed): the SDK's
// createLlmClient resolves ANTHROPIC_API_KEY from the agent's environment, a direct caller passes
// apiKey (the same as every provider client).
import { CodeError } from '@a3s-lab/code-core';
import { startScriptedModelServer, textResponse } from '@a3s-lab/code-testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createAnthropicClient } from '../src/index.js';

const VARIABLES = ['ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN', 'ANTHROPIC_BASE_URL'] as const;
const saved = new Map(VARIABLES.map((name) => [name, process.env[name]]));
afterEach(() => {
  for (const [name, value] of saved) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

describe('createAnthropicClient API key', () => {
  it('refuses api.anthropic.com without apiKey even when ANTHROPIC_API_KEY is set in process.env', () => {
    process.env['ANTHROPIC_API_KEY'] = 'sk-ant-from-process-env-0000';
    let error: unknown;
    try {
      createAnthropicClient({ model: 'claude-test' });
    } catch (caught) {
      error = caught;
    }
    expect(CodeError.isInstance(error) && error.code).toBe('CONFIG_ERROR');
  });

  it('sends the placeholder, not process.env, to a custom baseURL without apiKey, and never follows ANTHROPIC_BASE_URL', async () => {
    process.env['ANTHROPIC_API_KEY'] = 'sk-ant-from-process-env-0000';
    process.env['ANTHROPIC_AUTH_TOKEN'] = 'token-from-process-env-0000';
    const server = await startScriptedModelServer();
    const decoy = await startScriptedModelServer();
    try {
      process.env['ANTHROPIC_BASE_URL'] = decoy.anthropicBaseUrl;
      server.setScenario([textResponse('hi')]);
      const llm = createAnthropicClient({ baseURL: server.anthropicBaseUrl, model: 'claude-test' });
      for await (const event of llm.stream({ system: 's', tools: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] })) void event;
      expect(server.requests).toHaveLength(1);
      // The one credential presented is the placeholder (this SDK version sends a key as a bearer).
      const headers = server.requests[0]?.headers ?? {};
      expect([headers['x-api-key'], headers['authorization']].filter((value) => value !== undefined)).toEqual([expect.stringMatching(/^(Bearer )?no-api-key$/)]);
      expect(decoy.requests).toHaveLength(0);
    } finally {
      await Promise.all([server.close(), decoy.close()]);
    }
  });
});
