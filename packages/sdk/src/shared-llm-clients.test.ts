import { loadAgentDocument, toAgentConfig } from '@a3s-lab/code-config';
import type { AgentConfig } from '@a3s-lab/code-config';
import { CodeError } from '@a3s-lab/code-core';
import type { LlmClient } from '@a3s-lab/code-core';
import { describe, expect, it } from 'vitest';
import { resolveProviderClient } from './create-llm-client.js';
import type { ResolvedProviderClient } from './create-llm-client.js';
import { SharedLlmClients } from './shared-llm-clients.js';

const ACL = `
default_model = "anthropic/claude-a"
providers "anthropic" {
  base_url = "http://127.0.0.1:9"
  models "claude-a" { limit = { context = 100000  output = 1000 } }
  models "claude-b" {}
}
providers "gateway" {
  kind = "anthropic"
  base_url = "http://127.0.0.1:9"
  models "claude-a" { limit = { context = 50000  output = 1000 } }
  models "claude-c" { limit = { context = 50000  output = 2000 } }
}
`;

function configOf(text: string): AgentConfig {
  const document = loadAgentDocument(text, { env: {} });
  return toAgentConfig(document.document, { baseDir: document.baseDir });
}

/** The real resolution, with each provider's `createClient` counted (it still builds the real client). */
function counting(): { readonly resolve: (config: AgentConfig, model: string, env: Readonly<Record<string, string | undefined>>) => ResolvedProviderClient; readonly built: LlmClient[] } {
  const built: LlmClient[] = [];
  return {
    built,
    resolve: (config, model, env) => {
      const { provider, options } = resolveProviderClient(config, model, env);
      return {
        options,
        provider: {
          ...provider,
          createClient: (o) => {
            const client = provider.createClient(o);
            built.push(client);
            return client;
          },
        },
      };
    },
  };
}

describe('SharedLlmClients', () => {
  const config = configOf(ACL);

  it('builds one client per resolved provider settings and model, on first use', () => {
    const { resolve, built } = counting();
    const clients = new SharedLlmClients(resolve);
    expect(built).toHaveLength(0);
    const a = clients.client(config, 'anthropic/claude-a', {});
    expect(clients.client(config, 'anthropic/claude-a', {})).toBe(a);
    expect(built).toEqual([a]);
    const b = clients.client(config, 'anthropic/claude-b', {});
    expect(b).not.toBe(a);
    expect(b.model).toBe('claude-b');
    // What the client is built from decides, not the provider's name: the same kind, id, URL,
    // key and output limit under another name is the same client; another output limit is not.
    expect(clients.client(config, 'gateway/claude-a', {})).toBe(a);
    expect(clients.client(config, 'gateway/claude-c', {})).not.toBe(a);
    expect(clients.size).toBe(3);
    expect(built).toHaveLength(3);
  });

  it('a key read from the environment is part of the settings: another key, another client', () => {
    const keyed = configOf(ACL.replace('base_url = "http://127.0.0.1:9"\n  models "claude-a"', 'models "claude-a"'));
    const { resolve, built } = counting();
    const clients = new SharedLlmClients(resolve);
    const first = clients.client(keyed, 'anthropic/claude-a', { ANTHROPIC_API_KEY: 'sk-ant-one-000000' });
    expect(clients.client(keyed, 'anthropic/claude-a', { ANTHROPIC_API_KEY: 'sk-ant-one-000000' })).toBe(first);
    expect(clients.client(keyed, 'anthropic/claude-a', { ANTHROPIC_API_KEY: 'sk-ant-two-000000' })).not.toBe(first);
    expect(built).toHaveLength(2);
  });

  it('a resolution error is thrown every time and keeps nothing', () => {
    const keyless = configOf(ACL.replace('base_url = "http://127.0.0.1:9"\n  models "claude-a"', 'models "claude-a"'));
    const clients = new SharedLlmClients();
    for (let i = 0; i < 2; i++) expect(() => clients.client(keyless, 'anthropic/claude-a', {})).toThrow(expect.objectContaining({ code: 'CONFIG_ERROR' }));
    expect(() => clients.client(config, 'anthropic/none', {})).toThrow(CodeError);
    expect(clients.size).toBe(0);
  });

  it('clear drops the clients; later ones are built but not kept', () => {
    const { resolve, built } = counting();
    const clients = new SharedLlmClients(resolve);
    const before = clients.client(config, 'anthropic/claude-a', {});
    clients.clear();
    expect(clients.size).toBe(0);
    const after = clients.client(config, 'anthropic/claude-a', {});
    expect(after).not.toBe(before);
    expect(clients.client(config, 'anthropic/claude-a', {})).not.toBe(after);
    expect(clients.size).toBe(0);
    expect(built).toHaveLength(3);
  });
});
