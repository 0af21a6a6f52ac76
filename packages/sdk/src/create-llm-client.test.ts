import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { agentConfigJsonSchema } from '@a3s-lab/code-config';
import { Agent } from './agent.js';
import { LLM_PROVIDERS } from './llm-providers.js';

const ACL = `
default_model = "anthropic/claude-test"
providers "anthropic" {
  api_key = env("A3S_TEST_UNSET_KEY")
  models "claude-test" {}
}
`;

describe('createLlmClient', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  it('a missing Anthropic key is a CONFIG_ERROR naming the config file, before any request', async () => {
    dir = mkdtempSync(join(tmpdir(), 'a3s-key-'));
    const file = join(dir, 'agent.acl');
    writeFileSync(file, ACL);
    const agent = await Agent.create(file, { env: {} });
    expect(() => agent.session(dir!)).toThrow(expect.objectContaining({ code: 'CONFIG_ERROR', message: expect.stringContaining(file) }));
    await agent.close();
  });

  it('takes the key from the agent environment, and a custom base_url needs none', async () => {
    dir = mkdtempSync(join(tmpdir(), 'a3s-key-'));
    const withKey = await Agent.create(ACL, { env: { ANTHROPIC_API_KEY: 'sk-ant-from-env-0000' } });
    expect(withKey.session(dir).toolNames()).toContain('read');
    const proxied = await Agent.create(ACL.replace('models', 'base_url = "http://127.0.0.1:9"\n  models'), { env: {} });
    expect(proxied.session(dir).toolNames()).toContain('read');
    await withKey.close();
    await proxied.close();
  });
});

describe('LLM_PROVIDERS', () => {
  it('serves exactly the kinds the config accepts', () => {
    expect([...LLM_PROVIDERS.keys()].sort()).toEqual([...agentConfigJsonSchema.$defs.provider.properties.kind.enum].sort());
  });

  it('every kind reads its key from the agent environment the same way: an OpenAI provider without a key is a CONFIG_ERROR naming OPENAI_API_KEY', async () => {
    const acl = 'default_model = "openai/gpt-test"\nproviders "openai" {\n  models "gpt-test" {}\n}\n';
    const dir = mkdtempSync(join(tmpdir(), 'a3s-key-'));
    try {
      const agent = await Agent.create(acl, { env: {} });
      expect(() => agent.session(dir)).toThrow(expect.objectContaining({ code: 'CONFIG_ERROR', message: expect.stringContaining('OPENAI_API_KEY') }));
      const keyed = await Agent.create(acl, { env: { OPENAI_API_KEY: 'sk-oai-from-env-0000' } });
      expect(keyed.session(dir).toolNames()).toContain('read');
      await agent.close();
      await keyed.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
