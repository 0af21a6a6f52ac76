import { describe, expect, it } from 'vitest';
import { makeKernel } from '../../test/kernel-kit.js';
import type { Tool } from '../tools/tool.js';
import { DefaultSecurityProvider } from './security-provider.js';

const provider = new DefaultSecurityProvider({ secretValues: ['db-password-value-7c1e9a'] });

// Ordinary code the agent reads and edits: redacting any of it makes the agent write the marker
// back into source.
const CODE = [
  'const cacheKey = computeCacheKeyFor(req)',
  'private_key_path = "/etc/ssl/private/server.key"',
  'tokenizer = createTokenizerForModel(modelName)',
  'passwordField = document.getElementById("password-input")',
  'const secretName = process.env.SECRET_NAME_FOR_VAULT',
  "apiKeyHeader: 'x-api-key-header-name'",
  'sessionToken: generateSessionTokenFrom(userRecord)',
  'MAX_TOKENS=compute_max_tokens_for_budget',
  'primaryKey = "user_id_and_created_at_composite"',
  '"publicKey": "AAAAB3NzaC1yc2EAAAADAQABAAABAQC"',
];

describe('redaction precision', () => {
  it.each(CODE)('leaves %j unchanged', (line) => {
    expect(provider.redact(line)).toBe(line);
  });

  it.each([
    ['a known secret value', 'DB_PASSWORD=db-password-value-7c1e9a', 'db-password-value-7c1e9a'],
    ['a provider key in code', 'const key = "sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123"', 'sk-ant-api03-abcdefgh'],
    ['an AWS key id', 'aws_access_key_id = AKIAIOSFODNN7EXAMPLE', 'AKIAIOSFODNN7EXAMPLE'],
  ])('still redacts %s', (_name, text, secret) => {
    expect(provider.redact(text)).not.toContain(secret);
  });

  it('a host-direct read gets the real text back; the agent and the events see it redacted', async () => {
    const source = 'const key = "sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123";\nconst cacheKey = computeCacheKeyFor(req);\n';
    const tool: Tool = { name: 'show', description: 'shows the file', parameters: { type: 'object' }, capabilities: () => ({ readOnly: true }), execute: async () => ({ output: source }) };
    const { kernel, events } = makeKernel([tool], { security: provider });
    const host = await kernel.invoke({ toolName: 'show', args: {}, origin: 'host-direct' });
    expect(host.output).toBe(source);
    const agent = await kernel.invoke({ toolName: 'show', args: {}, origin: 'agent' });
    expect(agent.output).not.toContain('sk-ant-api03-abc');
    expect(agent.output).toContain('const cacheKey = computeCacheKeyFor(req);');
    for (const event of events.filter((e) => e.type === 'tool_end')) expect(JSON.stringify(event.payload)).not.toContain('sk-ant-api03-abc');
  });
});
