// The built package's copy of @anthropic-ai/sdk (dist/vendor/anthropic-ai-sdk.cjs, bundled from
// src/anthropic-sdk-entry.ts): what a host loads on its first model call. The sources' tests import
// the entry itself; this checks the bundle on its own, over real HTTP to the scripted server.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { errorResponse, startScriptedModelServer, textResponse } from '@a3s-lab/code-testing';
import { describe, expect, it } from 'vitest';

import type { AnthropicSdkModule } from '../src/load-anthropic-sdk.js';

const here = dirname(fileURLToPath(import.meta.url));
const vendored = join(here, '..', 'dist', 'vendor', 'anthropic-ai-sdk.cjs');
const built = existsSync(vendored) || process.env['CI'] === 'true';
if (!built) console.warn(`anthropic vendored-SDK tests skipped: ${vendored} is missing (npm test builds it)`);

describe.skipIf(!built)('the vendored @anthropic-ai/sdk', () => {
  const load = (): AnthropicSdkModule => createRequire(import.meta.url)(vendored) as AnthropicSdkModule;

  it('is the client and Messages resource only, and streams a reply over HTTP', async () => {
    const sdk = load();
    expect(Object.keys(sdk).sort()).toEqual(['APIConnectionError', 'APIError', 'default']);
    const server = await startScriptedModelServer({ scenario: [textResponse('from the copy')] });
    try {
      const client = new sdk.default({ apiKey: 'sk-ant-test-key-000000', baseURL: server.anthropicBaseUrl, maxRetries: 0 });
      const stream = await client.messages.create({ model: 'claude-test', max_tokens: 64, stream: true, messages: [{ role: 'user', content: 'hi' }] });
      let text = '';
      for await (const event of stream) if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') text += event.delta.text;
      expect(text).toBe('from the copy');
      expect(server.requests.filter((request) => request.path === '/v1/messages')).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  it("raises its own APIError for an HTTP error, and APIConnectionError when nothing listens", async () => {
    const sdk = load();
    const server = await startScriptedModelServer({ scenario: [errorResponse(529, { message: 'overloaded' })] });
    try {
      const client = new sdk.default({ apiKey: 'sk-ant-test-key-000000', baseURL: server.anthropicBaseUrl, maxRetries: 0 });
      const failure = await client.post('/v1/messages', { body: '{"model":"claude-test","max_tokens":8,"messages":[]}', headers: { 'content-type': 'application/json' } }).then(
        () => null,
        (error: unknown) => error,
      );
      expect(failure).toBeInstanceOf(sdk.APIError);
      expect((failure as InstanceType<typeof sdk.APIError>).status).toBe(529);
    } finally {
      await server.close();
    }
    const closed = new sdk.default({ apiKey: 'sk-ant-test-key-000000', baseURL: server.anthropicBaseUrl, maxRetries: 0 });
    await expect(closed.post('/v1/messages', { body: '{}', headers: { 'content-type': 'application/json' } })).rejects.toBeInstanceOf(sdk.APIConnectionError);
  });
});
