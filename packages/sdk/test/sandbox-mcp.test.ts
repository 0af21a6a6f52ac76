// Issue 31: an MCP stdio server runs inside the OS sandbox when the host asks
// (`transport.sandbox`): it works, writes only where allowed, and an unavailable sandbox fails
// the call with SANDBOX_UNAVAILABLE. Fixtures under /var/tmp (the sandbox's /tmp is private).
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { mkdtemp, realpath } from 'node:fs/promises';
import { join } from 'node:path';

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { startScriptedModelServer, textResponse } from '@a3s-lab/code-testing';
import type { ScriptedModelServer } from '@a3s-lab/code-testing';
import { fixtureMcpStdioCommand } from '@a3s-lab/code-testing/mcp';

import { Agent, CodeError } from '../src/index.js';
import { aclFor } from './harness.js';

const available = process.platform === 'linux' && existsSync('/usr/bin/bwrap');
let base = '';
let server: ScriptedModelServer;
let agent: Agent;

beforeAll(async () => {
  base = await realpath(await mkdtemp('/var/tmp/a3s-sandbox-mcp-'));
  mkdirSync(join(base, 'ws'));
  mkdirSync(join(base, 'logs'));
  server = await startScriptedModelServer({ scenario: [textResponse('unused')] });
  agent = await Agent.create(aclFor(server, 'anthropic'));
});

afterAll(async () => {
  await agent?.close();
  await server?.close();
  rmSync(base, { recursive: true, force: true });
});

afterEach(() => {
  delete process.env['A3S_CODE_BWRAP'];
});

describe.skipIf(!available)('a sandboxed MCP stdio server', () => {
  it('serves its tools and writes only where allowWrite lets it', async () => {
    const session = await agent.sessionAsync(join(base, 'ws'));
    const allowed = join(base, 'logs', 'allowed.log');
    await session.addMcp({ name: 'fx', transport: { type: 'stdio', ...fixtureMcpStdioCommand(), sandbox: { allowWrite: [join(base, 'logs')] } }, env: { MCP_FIXTURE_LOG: allowed } });
    const result = await session.tool('mcp__fx__echo', { text: 'boxed hello' });
    expect(result.output).toBe('boxed hello');
    await session.tool('mcp__fx__write_note', { text: 'allowed note' });
    expect(readFileSync(allowed, 'utf8')).toContain('note allowed note');
    await session.closeAsync();
  });

  it('cannot write outside allowWrite (its log under /var/tmp stays absent)', async () => {
    const session = await agent.sessionAsync(join(base, 'ws'));
    const outside = join(base, 'outside.log');
    await session
      .addMcp({ name: 'fx2', transport: { type: 'stdio', ...fixtureMcpStdioCommand(), sandbox: true }, env: { MCP_FIXTURE_LOG: outside }, timeoutMs: 5000 })
      .catch(() => undefined);
    expect((await session.tool('mcp__fx2__echo', { text: 'still serving' })).output).toBe('still serving');
    await session.tool('mcp__fx2__write_note', { text: 'escaped note' }).catch(() => undefined);
    expect(existsSync(outside)).toBe(false);
    await session.closeAsync();
  });
});

describe.skipIf(!available)('a sandboxed MCP server of the ACL', () => {
  it('mcp_servers transport sandbox = { allow_write = [...] } starts it boxed', async () => {
    const { command, args } = fixtureMcpStdioCommand();
    const log = join(base, 'logs', 'acl.log');
    const acl = `mcp_servers "acl" {\n  transport = { type = "stdio"  command = ${JSON.stringify(command)}  args = ${JSON.stringify(args)}  sandbox = { allow_write = [${JSON.stringify(join(base, 'logs'))}] } }\n  env = { MCP_FIXTURE_LOG = ${JSON.stringify(log)} }\n  timeout_ms = 20000\n}`;
    const aclAgent = await Agent.create(aclFor(server, 'anthropic', acl));
    try {
      const session = await aclAgent.sessionAsync(join(base, 'ws'));
      await session.tool('mcp__acl__write_note', { text: 'from the acl' });
      expect(readFileSync(log, 'utf8')).toContain('note from the acl');
      const status = await session.mcps();
      expect(status.find((entry) => entry.name === 'acl')?.connected).toBe(true);
      // The server's process is bubblewrap running the fixture.
      const boxed = readdirSync('/proc').filter((pid) => /^\d+$/.test(pid)).some((pid) => {
        try {
          const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
          return cmdline[0]?.endsWith('bwrap') === true && cmdline.some((arg) => arg.includes('fixture-mcp-stdio')) && cmdline.includes(join(base, 'logs'));
        } catch {
          return false;
        }
      });
      expect(boxed).toBe(true);
    } finally {
      await aclAgent.close();
    }
  });
});

describe('an MCP sandbox that cannot start', () => {
  it('fails addMcp with SANDBOX_UNAVAILABLE (no unsandboxed fallback)', async () => {
    process.env['A3S_CODE_BWRAP'] = '/nonexistent/bwrap';
    const session = await agent.sessionAsync(join(base, 'ws'), { sandbox: { mode: 'off' } });
    const error = await session.addMcp({ name: 'fx3', transport: { type: 'stdio', ...fixtureMcpStdioCommand(), sandbox: true } }).catch((caught: unknown) => caught);
    expect(CodeError.hasCode(error, 'SANDBOX_UNAVAILABLE')).toBe(true);
    expect(session.toolNames().some((name) => name.startsWith('mcp__fx3__'))).toBe(false);
    await session.closeAsync();
  });

  it('a bad sandbox value is a CONFIG_ERROR', async () => {
    const session = await agent.sessionAsync(join(base, 'ws'), { sandbox: { mode: 'off' } });
    for (const sandbox of ['yes', { network: { allow: ['x:1'] } }, { mode: 'off' }]) {
      const error = await session.addMcp({ name: 'fx4', transport: { type: 'stdio', ...fixtureMcpStdioCommand(), sandbox: sandbox as never } }).catch((caught: unknown) => caught);
      expect(CodeError.hasCode(error, 'CONFIG_ERROR')).toBe(true);
    }
    await session.closeAsync();
  });
});
