// MCP end-to-end through the public SDK: real MCP servers written with @modelcontextprotocol/sdk
// (the fixture of @a3s-lab/code-testing/mcp) over stdio and over Streamable HTTP on 127.0.0.1,
// driven by the scripted model through the real provider clients. Every MCP call goes through
// the kernel: permission, confirmation, hooks, timeouts, output bounds.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { textResponse, toolCallResponse, toolNamesOf, toolResultsOf } from '@a3s-lab/code-testing';
import { fixtureMcpStdioCommand, startFixtureMcpHttpServer } from '@a3s-lab/code-testing/mcp';
import type { FixtureMcpHttpServer } from '@a3s-lab/code-testing/mcp';
import { Agent, CodeError } from '../src/index.js';
import type { AgentEvent, McpTransportConfig, Session, ToolSource } from '../src/index.js';
import { PROTOCOLS, aclFor, startHarness } from './harness.js';
import type { Harness } from './harness.js';

async function streamAll(session: Session, prompt: string, onEvent: (event: AgentEvent) => Promise<void> | void = () => undefined): Promise<AgentEvent[]> {
  const events: AgentEvent[] = [];
  for await (const event of await session.stream(prompt)) {
    events.push(event);
    await onEvent(event);
  }
  return events;
}

let http: FixtureMcpHttpServer;
let logDir: string;
beforeAll(async () => {
  http = await startFixtureMcpHttpServer();
  logDir = mkdtempSync(join(tmpdir(), 'a3s-mcp-log-'));
});
afterAll(async () => {
  await http.close();
  rmSync(logDir, { recursive: true, force: true });
});

const stdio = (): McpTransportConfig => ({ type: 'stdio', ...fixtureMcpStdioCommand() });
const TRANSPORTS = ['stdio', 'streamable-http'] as const;
const transportOf = (kind: (typeof TRANSPORTS)[number]): McpTransportConfig => (kind === 'stdio' ? stdio() : { type: 'streamable-http', url: http.url });

describe.each(PROTOCOLS)('a model-driven MCP call over %s', (protocol) => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.cleanup();
    h = undefined;
  });

  it.each(TRANSPORTS)('over %s: the model sees mcp__fx__* tools, calls one, and reads its result', async (kind) => {
    h = await startHarness(protocol, [toolCallResponse('mcp__fx__echo', { text: 'hello from the model' }), textResponse('The server said hello.')]);
    const session = await h.agent.sessionAsync(h.dir);
    expect(await session.addMcp({ name: 'fx', transport: transportOf(kind) })).toBeGreaterThanOrEqual(10);
    expect(session.toolNames()).toEqual(expect.arrayContaining(['read', 'mcp__fx__echo', 'mcp__fx__write_note']));
    // Definitions carry the server's input schemas as they are (here a JSON Schema 2020-12 one).
    const pair = session.toolDefinitions().find((definition) => definition.name === 'mcp__fx__strict_pair');
    expect(pair?.parameters).toMatchObject({ $schema: 'https://json-schema.org/draft/2020-12/schema', required: ['pair'] });
    const events = await streamAll(session, 'say hello through MCP');
    expect(events.at(-1)?.payload['text']).toBe('The server said hello.');
    const end = events.find((e) => e.type === 'tool_end');
    expect(end).toMatchObject({ toolName: 'mcp__fx__echo', exitCode: 0 });
    expect(toolNamesOf(h.server.requests[0]!)).toContain('mcp__fx__echo');
    expect(toolResultsOf(h.server.requests[1]!)[0]?.content).toBe('hello from the model');
    expect(await session.mcps()).toEqual([{ name: 'fx', connected: true, toolCount: session.toolNames().filter((n) => n.startsWith('mcp__fx__')).length, source: 'session' }]);
  });
});

describe.each(TRANSPORTS)('governance of MCP calls over %s', (kind) => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.cleanup();
    h = undefined;
  });

  it('a deny rule on mcp__fx__write_note: the server never sees the call', async () => {
    const log = join(logDir, `deny-${kind}.log`);
    h = await startHarness('anthropic', [toolCallResponse('mcp__fx__write_note', { text: 'secret plan' }), textResponse('denied')]);
    const session = await h.agent.sessionAsync(h.dir, { permissionPolicy: { deny: ['mcp__fx__write_note'], defaultDecision: 'allow' } });
    await session.addMcp({ name: 'fx', transport: transportOf(kind), ...(kind === 'stdio' ? { env: { MCP_FIXTURE_LOG: log } } : {}) });
    const events = await streamAll(session, 'write a note');
    expect(events.find((e) => e.type === 'permission_denied')).toMatchObject({ toolName: 'mcp__fx__write_note', payload: { rule: 'mcp__fx__write_note' } });
    expect(events.filter((e) => e.type === 'tool_execution_start')).toEqual([]);
    expect(toolResultsOf(h.server.requests[1]!)[0]?.content).toMatch(/^Permission denied/);
    if (kind === 'stdio') expect(() => readFileSync(log, 'utf8')).toThrow();
  });

  it('an ask rule mcp__fx__*: the call waits for approval, then runs on the server', async () => {
    h = await startHarness('anthropic', [toolCallResponse('mcp__fx__write_note', { text: 'approved note' }), textResponse('done')]);
    const session = await h.agent.sessionAsync(h.dir, { permissionPolicy: { ask: ['mcp__fx__*'], defaultDecision: 'allow' }, confirmationPolicy: { defaultTimeoutMs: 30_000 } });
    await session.addMcp({ name: 'fx', transport: transportOf(kind) });
    const events = await streamAll(session, 'write a note', async (event) => {
      if (event.type !== 'confirmation_required') return;
      expect(event.toolName).toBe('mcp__fx__write_note');
      expect(await session.confirmToolUse(event.toolId!, true, 'fine')).toBe(true);
    });
    expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(['confirmation_required', 'confirmation_received', 'tool_execution_start', 'tool_end']));
    expect(toolResultsOf(h.server.requests[1]!)[0]?.content).toBe('noted: approved note');
  });

  it('a pre_tool_use hook on mcp__* blocks the call before it reaches the server', async () => {
    h = await startHarness('anthropic', [toolCallResponse('mcp__fx__write_note', { text: 'x' }), textResponse('blocked')]);
    const session = await h.agent.sessionAsync(h.dir);
    await session.addMcp({ name: 'fx', transport: transportOf(kind) });
    const seen: unknown[] = [];
    session.registerHook('no-mcp-writes', 'pre_tool_use', { tool: 'mcp__*' }, null, (event) => {
      seen.push(event);
      return { action: 'block', reason: 'MCP writes are frozen' };
    });
    const events = await streamAll(session, 'write');
    expect(seen).toHaveLength(1);
    expect(events.filter((e) => e.type === 'tool_execution_start')).toEqual([]);
    expect(events.find((e) => e.type === 'tool_end')?.payload['error_kind']).toMatchObject({ type: 'hook_denied', reason: 'MCP writes are frozen' });
  });

  it('a hung call ends at timeoutMs with a typed timeout and the server is told to cancel', async () => {
    const log = join(logDir, `timeout-${kind}.log`);
    h = await startHarness('anthropic', [toolCallResponse('mcp__fx__slow', { ms: 60_000 }), textResponse('it hung')]);
    const session = await h.agent.sessionAsync(h.dir);
    await session.addMcp({ name: 'fx', transport: transportOf(kind), timeoutMs: 4000, ...(kind === 'stdio' ? { env: { MCP_FIXTURE_LOG: log } } : {}) });
    const events = await streamAll(session, 'wait');
    const end = events.find((e) => e.type === 'tool_end');
    expect(end?.payload['error_kind']).toMatchObject({ type: 'timeout', duration_ms: 4000 });
    if (kind === 'stdio') {
      // notifications/cancelled reached the server, which aborted its handler.
      await expect.poll(() => { try { return readFileSync(log, 'utf8'); } catch { return ''; } }).toContain('cancelled slow');
    }
    // The connection survives a timed-out call.
    expect((await session.tool('mcp__fx__echo', { text: 'still here' })).output).toBe('still here');
  });

  it('a result over the inline bound is spilled to an artifact the host can read', async () => {
    h = await startHarness('anthropic', [toolCallResponse('mcp__fx__big', { bytes: 300_000 }), textResponse('big')]);
    const session = await h.agent.sessionAsync(h.dir);
    await session.addMcp({ name: 'fx', transport: transportOf(kind) });
    const events = await streamAll(session, 'big');
    const end = events.find((e) => e.type === 'tool_end');
    expect(end?.exitCode).toBe(0);
    const shown = toolResultsOf(h.server.requests[1]!)[0]?.content ?? '';
    expect(shown.length).toBeLessThan(300_000);
    const uri = /a3s:\/\/tool-output\/mcp__fx__big\/[\w-]+/.exec(shown)?.[0];
    expect(uri).toBeDefined();
    expect(session.getArtifact(uri!)?.content.length).toBe(300_000);
  });
});

describe('MCP global servers, shadowing and the spec sample', () => {
  const agents: Agent[] = [];
  let h: Harness | undefined;
  afterEach(async () => {
    for (const agent of agents.splice(0)) await agent.close();
    await h?.cleanup();
    h = undefined;
  });

  const globalAcl = (): string => {
    const { command, args } = fixtureMcpStdioCommand();
    return `mcp_servers "fx" {\n  transport = { type = "stdio"  command = ${JSON.stringify(command)}  args = ${JSON.stringify(args)} }\n  timeout_ms = 20000\n}\nmcp_servers "web" {\n  transport = { type = "streamable-http"  url = ${JSON.stringify(http.url)} }\n}`;
  };

  it('config servers are inherited by every session; a session server shadows one in that session only', async () => {
    h = await startHarness('anthropic', []);
    const agent = await Agent.create(aclFor(h.server, 'anthropic', globalAcl()));
    agents.push(agent);
    const first = await agent.sessionAsync(h.dir);
    const second = await agent.sessionAsync(h.dir);
    for (const session of [first, second]) {
      expect(session.toolNames()).toEqual(expect.arrayContaining(['mcp__fx__echo', 'mcp__web__echo']));
      expect((await session.mcps()).map((s) => [s.name, s.source, s.connected])).toEqual([['fx', 'global', true], ['web', 'global', true]]);
    }
    const globalTools = first.toolNames().filter((n) => n.startsWith('mcp__web__')).length;

    // Shadow "web" in the first session with a stdio server of the same name (which also has the
    // four process tools: process_info, crash, flood, spawn_escapee).
    expect(await first.addMcp({ name: 'web', transport: stdio() })).toBe(globalTools + 4);
    expect((await first.mcps()).map((s) => [s.name, s.source])).toEqual([['web', 'session'], ['fx', 'global']]);
    expect(first.toolNames()).toContain('mcp__web__process_info');
    expect(second.toolNames()).not.toContain('mcp__web__process_info');
    expect((await second.mcps()).map((s) => [s.name, s.source])).toEqual([['fx', 'global'], ['web', 'global']]);

    // Global servers are read-only from a session; removing the shadow reveals the inherited tools.
    expect(await second.removeMcp('web')).toBe(false);
    expect(second.toolNames()).toContain('mcp__web__echo');
    expect(await first.removeMcp('web')).toBe(true);
    expect(first.toolNames()).not.toContain('mcp__web__process_info');
    expect(first.toolNames()).toContain('mcp__web__echo');
    expect((await first.tool('mcp__web__echo', { text: 'inherited again' })).output).toBe('inherited again');
    expect((await first.mcps()).map((s) => [s.name, s.source])).toEqual([['fx', 'global'], ['web', 'global']]);

    // A session acting as the read-only explore agent does not inherit MCP tools.
    const explorer = await agent.sessionForAgentAsync(h.dir, 'explore');
    expect(explorer.toolNames().some((name) => name.startsWith('mcp__'))).toBe(false);
    expect(await explorer.mcps()).toEqual([]);

    // Closing a session leaves the global servers to the others.
    await first.closeAsync();
    expect((await second.tool('mcp__fx__echo', { text: 'alive' })).output).toBe('alive');
  });

  it('agent.close() ends the config servers (their stdio processes exit)', async () => {
    h = await startHarness('anthropic', []);
    const agent = await Agent.create(aclFor(h.server, 'anthropic', globalAcl()));
    const session = await agent.sessionAsync(h.dir);
    const { pid } = JSON.parse((await session.tool('mcp__fx__process_info', {})).output) as { pid: number };
    const alive = (): boolean => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    expect(alive()).toBe(true);
    await session.closeAsync();
    // Global servers outlive a session...
    expect(alive()).toBe(true);
    // ...and end with the agent.
    await agent.close();
    expect(alive()).toBe(false);
  });

  it('a config server that cannot start does not stop the agent: mcps() reports it', async () => {
    h = await startHarness('anthropic', []);
    const agent = await Agent.create(aclFor(h.server, 'anthropic', `mcp_servers "gone" {\n  transport = { type = "stdio"  command = "/nonexistent/mcp-server" }\n}`));
    agents.push(agent);
    const session = await agent.sessionAsync(h.dir);
    const [status] = await session.mcps();
    expect(status).toMatchObject({ name: 'gone', connected: false, toolCount: 0, source: 'global' });
    expect(status?.error).toContain('/nonexistent/mcp-server');
  });

  it('the spec sample: addMcp with a stdio server, env and timeoutMs, then mcps()', async () => {
    h = await startHarness('anthropic', []);
    const session = await h.agent.sessionAsync(h.dir);
    const { command, args } = fixtureMcpStdioCommand();
    await session.addMcp({
      name: 'github',
      transport: { type: 'stdio', command, args },
      env: { GITHUB_TOKEN: process.env['GITHUB_TOKEN'] ?? '' },
      timeoutMs: 30000,
    });
    const listed = await session.mcps();
    expect(listed).toEqual([{ name: 'github', connected: true, toolCount: expect.any(Number) as unknown, source: 'session' }]);
    expect(listed[0]!.toolCount).toBeGreaterThan(10);
    // Compatibility forms.
    expect(await session.addMcpServer('gh2', { type: 'stdio', command, args }, {}, 30000)).toBe(listed[0]!.toolCount);
    expect(await session.addMcpServerConfig({ name: 'gh3', transport: { type: 'streamable-http', url: http.url } })).toBeGreaterThan(10);
    expect((await session.mcps()).map((s) => s.name)).toEqual(['github', 'gh2', 'gh3']);
    expect(await session.removeMcp('gh2')).toBe(true);
    expect(session.toolNames().some((n) => n.startsWith('mcp__gh2__'))).toBe(false);
  });

  it('addMcp failures are typed: bad config, unreachable server, duplicate name, closed session', async () => {
    h = await startHarness('anthropic', []);
    const session = await h.agent.sessionAsync(h.dir);
    const codeOf = async (run: () => Promise<unknown>): Promise<string> => {
      try {
        await run();
        return 'no error';
      } catch (error) {
        return CodeError.isInstance(error) ? `${error.code}:${String(error.details['reason'] ?? error.details['field'])}` : String(error);
      }
    };
    expect(await codeOf(() => session.addMcp({ name: 'a__b', transport: stdio() }))).toBe('CONFIG_ERROR:name');
    expect(await codeOf(() => session.addMcp({ name: 'x', transport: { type: 'stdio', command: 'x' }, oauth: {} } as never))).toBe('CONFIG_ERROR:oauth');
    expect(await codeOf(() => session.addMcp({ name: 'x', transport: { type: 'streamable-http', url: 'http://127.0.0.1:1/mcp' }, timeoutMs: 2000 }))).toBe('MCP_ERROR:connect_failed');
    expect(await session.mcps()).toEqual([]);
    await session.addMcp({ name: 'fx', transport: { type: 'streamable-http', url: http.url } });
    expect(await codeOf(() => session.addMcp({ name: 'fx', transport: stdio() }))).toBe('MCP_ERROR:duplicate_server');
    await session.closeAsync();
    expect(await codeOf(() => session.addMcp({ name: 'late', transport: stdio() }))).toBe('SESSION_CLOSED:undefined');
  });
});

describe('MCP stdio faults through a session', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.cleanup();
    h = undefined;
  });

  it('a server that crashes mid-call gives a typed transport failure, then the next call reconnects', async () => {
    h = await startHarness('anthropic', [toolCallResponse('mcp__fx__crash', {}), textResponse('it crashed')]);
    const session = await h.agent.sessionAsync(h.dir);
    await session.addMcp({ name: 'fx', transport: stdio() });
    const events = await streamAll(session, 'crash it');
    const end = events.find((e) => e.type === 'tool_end');
    expect(end?.exitCode).toBe(1);
    expect(end?.payload['error_kind']).toMatchObject({ type: 'transport', op: 'mcp:fx/crash' });
    expect(toolResultsOf(h.server.requests[1]!)[0]?.content).toMatch(/MCP server 'fx'.*connection lost.*exited with code 3.*crashing on purpose/s);
    expect(await session.mcps()).toEqual([expect.objectContaining({ name: 'fx', connected: false, error: expect.stringContaining('disconnected') as unknown })]);
    // The session itself is fine, and the next call starts the server again.
    const again = await session.tool('mcp__fx__echo', { text: 'back' });
    expect(again).toMatchObject({ exitCode: 0, output: 'back' });
    expect((await session.mcps())[0]?.connected).toBe(true);
  });

  it('a server flooding stdout with junk and malformed JSON-RPC cannot crash or hang the session', async () => {
    h = await startHarness('anthropic', []);
    const session = await h.agent.sessionAsync(h.dir);
    await session.addMcp({ name: 'fx', transport: stdio() });
    const flooded = await session.tool('mcp__fx__flood', { lines: 2000 });
    expect(flooded).toMatchObject({ exitCode: 0, output: 'flooded 2000' });
    expect((await session.tool('mcp__fx__echo', { text: 'calm' })).output).toBe('calm');
  });

  it('the server runs with a secret-stripped environment plus the env given, and dies with the session', async () => {
    h = await startHarness('anthropic', []);
    const session = await h.agent.sessionAsync(h.dir);
    process.env['A3S_TEST_API_TOKEN'] = 'should-not-leak';
    try {
      await session.addMcp({ name: 'fx', transport: stdio(), env: { FIXTURE_TOKEN: 'passed-on-purpose' } });
    } finally {
      delete process.env['A3S_TEST_API_TOKEN'];
    }
    const info = JSON.parse((await session.tool('mcp__fx__process_info', {})).output) as { pid: number; env: string[]; passedValue: string | null };
    expect(info.env).not.toContain('A3S_TEST_API_TOKEN');
    expect(info.passedValue).toBe('passed-on-purpose');
    const alive = (): boolean => {
      try {
        process.kill(info.pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    expect(alive()).toBe(true);
    await session.closeAsync();
    expect(alive()).toBe(false);
  });
});

describe('MCP over HTTP: headers and redirects', () => {
  let h: Harness | undefined;
  const servers: FixtureMcpHttpServer[] = [];
  afterEach(async () => {
    for (const server of servers.splice(0)) await server.close();
    await h?.cleanup();
    h = undefined;
  });

  it('sends the configured headers; never follows a redirect to another origin', async () => {
    const guarded = await startFixtureMcpHttpServer({ bearerToken: 'sesame' });
    servers.push(guarded);
    const other = new URL(guarded.url);
    other.hostname = 'localhost';
    const redirecting = await startFixtureMcpHttpServer({ redirectTo: other.href });
    servers.push(redirecting);
    h = await startHarness('anthropic', []);
    const session = await h.agent.sessionAsync(h.dir);
    await expect(session.addMcp({ name: 'noauth', transport: { type: 'http', url: guarded.url }, timeoutMs: 5000 })).rejects.toMatchObject({ code: 'MCP_ERROR' });
    expect(await session.addMcp({ name: 'auth', transport: { type: 'http', url: guarded.url, headers: { Authorization: 'Bearer sesame' } } })).toBeGreaterThan(5);
    const before = guarded.requests.length;
    await expect(session.addMcp({ name: 'moved', transport: { type: 'http', url: redirecting.url, headers: { Authorization: 'Bearer sesame' } }, timeoutMs: 5000 })).rejects.toMatchObject({ code: 'MCP_ERROR' });
    // The redirect target (same port, other origin) never received the request or the token.
    expect(guarded.requests.length).toBe(before);
  });
});

describe('lazy loading', () => {
  it('a missing @a3s-lab/code-mcp is an MCP_ERROR naming the package', async () => {
    const { importMcp } = await import('../src/load-mcp.js');
    const missing = Object.assign(new Error("Cannot find package '@a3s-lab/code-mcp'"), { code: 'ERR_MODULE_NOT_FOUND' });
    await expect(importMcp(() => Promise.reject(missing))).rejects.toMatchObject({ code: 'MCP_ERROR', details: { reason: 'package_missing', package: '@a3s-lab/code-mcp' } });
  });
});


describe('agent tool sources and redaction of MCP results', () => {
  let h: Harness | undefined;
  const agents: Agent[] = [];
  afterEach(async () => {
    for (const agent of agents.splice(0)) await agent.close();
    await h?.cleanup();
    h = undefined;
  });

  it('a host tool source adds tools to every session through its surface and is closed with the session', async () => {
    h = await startHarness('anthropic', [toolCallResponse('host_clock', {}), textResponse('it is noon')]);
    const closed: string[] = [];
    const source: ToolSource = {
      name: 'host',
      attach: (surface) => {
        surface.register({ name: 'host_clock', description: 'Tells the time.', parameters: { type: 'object', properties: {} }, execute: async () => ({ output: 'noon' }) });
        return { close: async () => void closed.push(surface.sessionId) };
      },
    };
    const agent = await Agent.create(aclFor(h.server, 'anthropic'), { toolSources: [source] });
    agents.push(agent);
    const session = await agent.sessionAsync(h.dir, { permissionPolicy: { deny: ['host_clock'], defaultDecision: 'allow' } });
    expect(session.toolNames()).toContain('host_clock');
    // Its calls are governed like any other: the deny rule applies.
    const events = await streamAll(session, 'what time is it?');
    expect(events.find((e) => e.type === 'permission_denied')?.toolName).toBe('host_clock');
    await session.closeAsync();
    expect(closed).toEqual([session.id]);
  });

  it('secrets in MCP results are redacted before the model or the host sees them', async () => {
    h = await startHarness('anthropic', [toolCallResponse('mcp__fx__echo', { text: 'token=sk-live-0123456789abcdef' }), textResponse('ok')]);
    const agent = await Agent.create(aclFor(h.server, 'anthropic'), { env: { ...process.env, SERVICE_API_KEY: 'sk-live-0123456789abcdef' } });
    agents.push(agent);
    const session = await agent.sessionAsync(h.dir);
    await session.addMcp({ name: 'fx', transport: { type: 'streamable-http', url: http.url } });
    const events = await streamAll(session, 'echo it');
    const shown = toolResultsOf(h.server.requests[1]!)[0]?.content ?? '';
    expect(shown).not.toContain('sk-live-0123456789abcdef');
    expect(JSON.stringify(events)).not.toContain('sk-live-0123456789abcdef');
  });
});

describe('MCP tools in subagents', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.cleanup();
    h = undefined;
  });

  it("a general subagent can call the parent's MCP tools (governed in the child), an explore subagent cannot", async () => {
    h = await startHarness('anthropic', [
      toolCallResponse('task', { agent: 'general', description: 'echo via mcp', prompt: 'Echo through MCP.' }),
      toolCallResponse('mcp__fx__echo', { text: 'from the child' }),
      textResponse('the child echoed'),
      toolCallResponse('task', { agent: 'explore', description: 'look', prompt: 'Look around.' }),
      textResponse('explored'),
      textResponse('all done'),
    ]);
    const session = await h.agent.sessionAsync(h.dir);
    await session.addMcp({ name: 'fx', transport: { type: 'streamable-http', url: http.url } });
    const result = await session.send('delegate');
    expect(result.text).toBe('all done');
    const childFirst = h.server.requests[1]!;
    expect(toolNamesOf(childFirst)).toContain('mcp__fx__echo');
    expect(toolResultsOf(h.server.requests[2]!)[0]?.content).toBe('from the child');
    const exploreFirst = h.server.requests[4]!;
    expect(toolNamesOf(exploreFirst)).not.toContain('mcp__fx__echo');
  });
});

describe('agent directories with kind: mcp tools', () => {
  let h: Harness | undefined;
  const dirs: string[] = [];
  afterEach(async () => {
    await h?.cleanup();
    h = undefined;
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('sessionForAgentAsync connects the directory\'s MCP servers; the sync form refuses them with a clear error', async () => {
    const root = mkdtempSync(join(tmpdir(), 'a3s-mcp-agents-'));
    dirs.push(root);
    const { command, args } = fixtureMcpStdioCommand();
    mkdirSync(join(root, 'helper', 'tools'), { recursive: true });
    writeFileSync(join(root, 'helper', 'instructions.md'), 'You help through MCP.\n');
    writeFileSync(join(root, 'helper', 'tools', 'fx.md'), `---\nkind: mcp\nname: fx\ntransport: stdio\ncommand: ${JSON.stringify(command)}\nargs: ${JSON.stringify(args)}\n---\nThe fixture server.\n`);
    h = await startHarness('anthropic', []);
    const agent = await Agent.create(aclFor(h.server, 'anthropic', `agent_dirs = ["${root}"]`));
    try {
      const session = await agent.sessionForAgentAsync(h.dir, 'helper');
      expect(session.toolNames()).toContain('mcp__fx__echo');
      expect((await session.tool('mcp__fx__echo', { text: 'from a directory' })).output).toBe('from a directory');
      expect((await session.mcps()).map((s) => [s.name, s.source])).toEqual([['fx', 'session']]);
      expect(() => agent.sessionForAgent(h!.dir, 'helper')).toThrow(/kind: mcp.*sessionForAgentAsync/);
    } finally {
      await agent.close();
    }
  });
});
