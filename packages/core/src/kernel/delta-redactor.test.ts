import { describe, expect, it } from 'vitest';
import { makeKernel, recordingTool } from '../../test/kernel-kit.js';
import { DefaultSecurityProvider } from '../security/security-provider.js';

const KNOWN = 'known-secret-value-5e4d3c2b';
const PROVIDER_KEY = 'sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789';
const PEM = '-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAqwertyuiopasdfghjklzxcvbnm0123456789ABCDEFGH\nZmFrZWJhc2U2NGJvZHlsaW5lMmZha2ViYXNlNjRib2R5bGluZTJmYWtlYg==\n-----END RSA PRIVATE KEY-----\n';

/** Every piece of 6 characters of `secret` (past its first 3). */
const pieces = (secret: string): string[] => Array.from({ length: secret.length - 8 }, (_, index) => secret.slice(index + 3, index + 9));

async function deltasFor(text: string, cuts: readonly number[]): Promise<string> {
  const chunks: string[] = [];
  let start = 0;
  for (const cut of [...cuts, text.length]) {
    chunks.push(text.slice(start, cut));
    start = cut;
  }
  const tool = recordingTool('stream', async (_args, ctx) => {
    for (const chunk of chunks) ctx.emitOutputDelta(chunk);
    return { output: 'done' };
  });
  const { kernel, events } = makeKernel([tool], { security: new DefaultSecurityProvider({ secretValues: [KNOWN] }) });
  await kernel.invoke({ toolName: 'stream', args: { text: 'x' }, origin: 'agent' });
  return events.filter((event) => event.type === 'tool_output_delta').map((event) => String(event.payload['delta'])).join('');
}

describe('tool_output_delta is redacted across chunk boundaries', () => {
  it.each([3, 8, 14, 20, 30])('a provider key split at %i characters', async (at) => {
    const text = `token: ${PROVIDER_KEY} trailing\n`;
    const streamed = await deltasFor(text, [7 + at]);
    for (const piece of pieces(PROVIDER_KEY)) expect(streamed).not.toContain(piece);
  });

  it.each([2, 7, 13, 20])('a known secret value split at %i characters', async (at) => {
    const text = `export DB=${KNOWN}\nnext line\n`;
    const streamed = await deltasFor(text, [10 + at]);
    for (const piece of pieces(KNOWN)) expect(streamed).not.toContain(piece);
    expect(streamed).toContain('export DB=');
  });

  it.each([10, 40, 80, 130])('a private key block split at %i characters', async (at) => {
    const streamed = await deltasFor(`before\n${PEM}after\n`, [7 + at]);
    expect(streamed).not.toContain('MIIEowIBAAKCAQEA');
    expect(streamed).not.toContain('ZmFrZWJhc2U2NGJvZHls');
    expect(streamed).toContain('before');
    expect(streamed).toContain('after');
  });

  it('ordinary text still streams', async () => {
    expect(await deltasFor('line one\nline two\n', [5, 12])).toBe('line one\nline two\n');
  });
});
