import { describe, expect, it } from 'vitest';
import { CodeError } from '@a3s-lab/code-core';
import { DEFAULT_MCP_TIMEOUT_MS, resolveMcpServerConfig } from './mcp-server-config.js';

function fieldOf(input: unknown): string {
  try {
    resolveMcpServerConfig(input);
    return 'accepted';
  } catch (error) {
    if (!CodeError.hasCode(error, 'CONFIG_ERROR')) throw error;
    return String(error.details['field']);
  }
}

describe('resolveMcpServerConfig', () => {
  it('applies defaults and normalises http to streamable-http', () => {
    expect(resolveMcpServerConfig({ name: 'gh', transport: { type: 'stdio', command: 'npx' } })).toEqual({ name: 'gh', transport: { type: 'stdio', command: 'npx', args: [] }, env: {}, timeoutMs: DEFAULT_MCP_TIMEOUT_MS, acceptToolChanges: 'manual' });
    expect(resolveMcpServerConfig({ name: 'web', transport: { type: 'http', url: 'http://127.0.0.1:1/mcp', headers: { A: 'b' } }, timeoutMs: 5 })).toEqual({
      name: 'web',
      transport: { type: 'streamable-http', url: 'http://127.0.0.1:1/mcp', headers: { A: 'b' } },
      env: {},
      timeoutMs: 5,
      acceptToolChanges: 'manual',
    });
  });

  it('takes acceptToolChanges auto or manual and refuses anything else (issue 35)', () => {
    expect(resolveMcpServerConfig({ name: 'gh', transport: { type: 'stdio', command: 'npx' }, acceptToolChanges: 'auto' }).acceptToolChanges).toBe('auto');
    expect(() => resolveMcpServerConfig({ name: 'gh', transport: { type: 'stdio', command: 'npx' }, acceptToolChanges: 'yes' })).toThrow(/'acceptToolChanges' must be 'auto' or 'manual'/);
  });

  it.each([
    [null, 'config'],
    [{ name: 'a__b', transport: { type: 'stdio', command: 'x' } }, 'name'],
    [{ name: 'x'.repeat(33), transport: { type: 'stdio', command: 'x' } }, 'name'],
    [{ name: 'ok', transport: { type: 'websocket', url: 'ws://h' } }, 'transport.type'],
    [{ name: 'ok', transport: { type: 'stdio' } }, 'transport.command'],
    [{ name: 'ok', transport: { type: 'stdio', command: 'x', args: [1] } }, 'transport.args'],
    [{ name: 'ok', transport: { type: 'http', url: 'file:///etc/passwd' } }, 'transport.url'],
    [{ name: 'ok', transport: { type: 'http', url: 'http://h/mcp' }, env: { A: 'b' } }, 'env'],
    [{ name: 'ok', transport: { type: 'stdio', command: 'x' }, env: { A: 1 } }, 'env.A'],
    [{ name: 'ok', transport: { type: 'stdio', command: 'x' }, timeoutMs: 0 }, 'timeoutMs'],
    [{ name: 'ok', transport: { type: 'stdio', command: 'x' }, oauth: { clientId: 'c' } }, 'oauth'],
    [{ name: 'ok', transport: { type: 'http', url: 'http://h/mcp', sessionId: 's' } }, 'transport.sessionId'],
  ])('refuses %j naming %s', (input, field) => {
    expect(fieldOf(input)).toBe(field);
  });
});
