// MCP tool schemas on demand, end to end through the public SDK: three fixture MCP servers of 40
// generated tools each (Streamable HTTP on 127.0.0.1; ~1 KB of schema per tool) and the scripted
// model through the real provider clients. The first request carries a compact catalogue and
// `tool_search` instead of 120 definitions; the model loads a tool, whose full definition joins
// the following requests, and calls it; deny / ask / hooks still apply to a deferred tool.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { textResponse, toolCallResponse, toolNamesOf, toolResultsOf } from '@a3s-lab/code-testing';
import type { RecordedRequest } from '@a3s-lab/code-testing';
import { startFixtureMcpHttpServer } from '@a3s-lab/code-testing/mcp';
import type { FixtureMcpHttpServer } from '@a3s-lab/code-testing/mcp';
import { Agent, CodeError, MemorySessionStore } from '../src/index.js';
import type { AgentEvent, Session, SessionOptions } from '../src/index.js';
import { PROTOCOLS, aclFor, startHarness } from './harness.js';
import type { Harness } from './harness.js';

const SERVERS = ['gh1', 'gh2', 'gh3'] as const;
const TOOLS_PER_SERVER = 40;
const TARGET = 'mcp__gh2__list_issues_0';

let http: FixtureMcpHttpServer;
beforeAll(async () => {
  http = await startFixtureMcpHttpServer({ catalogTools: TOOLS_PER_SERVER });
});
afterAll(async () => {
  await http.close();
});

async function withServers(session: Session): Promise<void> {
  for (const name of SERVERS) expect(await session.addMcp({ name, transport: { type: 'streamable-http', url: http.url } })).toBe(TOOLS_PER_SERVER);
}

async function streamAll(session: Session, prompt: string, onEvent: (event: AgentEvent) => Promise<void> | void = () => undefined): Promise<AgentEvent[]> {
  const events: AgentEvent[] = [];
  for await (const event of await session.stream(prompt)) {
    events.push(event);
    await onEvent(event);
  }
  return events;
}

const descriptionOf = (request: RecordedRequest, name: string): string | undefined => {
  const tools = (request.body as { tools?: unknown[] }).tools ?? [];
  for (const tool of tools as Record<string, unknown>[]) {
    const fn = (tool['function'] ?? tool) as { name?: string; description?: string };
    if (fn.name === name) return fn.description;
  }
  return undefined;
};

describe.each(PROTOCOLS)('deferred MCP tools over %s', (protocol) => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.cleanup();
    h = undefined;
  });

  it('3 servers x 40 tools: a catalogue + tool_search in <= 24 KB; the model loads a tool, it joins the next request, the call runs', async () => {
    h = await startHarness(protocol, [
      toolCallResponse('tool_search', { query: `select:${TARGET}` }),
      toolCallResponse(TARGET, { owner: 'a3s', repo: 'code', state: 'open' }),
      textResponse('Two open issues.'),
    ]);
    const session = await h.agent.sessionAsync(h.dir);
    await withServers(session);
    const events = await streamAll(session, 'list the open issues of a3s/code');
    expect(events.at(-1)?.payload['text']).toBe('Two open issues.');
    const [first, second, third] = h.server.requests;
    const firstNames = toolNamesOf(first!);
    expect(firstNames.filter((name) => name.startsWith('mcp__'))).toEqual([]);
    expect(firstNames).toEqual(expect.arrayContaining(['read', 'tool_search']));
    const catalogue = descriptionOf(first!, 'tool_search')!;
    expect(catalogue).toContain('server gh2:');
    expect(catalogue).toContain('list_issues_0: Lists issues of a repository.');
    expect(first!.rawBytes.length).toBeLessThanOrEqual(24 * 1024);
    // The loaded tool's full definition joins the following requests; the others stay deferred.
    expect(toolResultsOf(second!)[0]?.content).toContain(TARGET);
    expect(toolNamesOf(second!).filter((name) => name.startsWith('mcp__'))).toEqual([TARGET]);
    expect(JSON.stringify(second!.body)).toContain('Account that owns the repository');
    expect(toolNamesOf(third!).filter((name) => name.startsWith('mcp__'))).toEqual([TARGET]);
    expect(toolResultsOf(third!).at(-1)?.content).toBe(`list_issues_0 ran {"owner":"a3s","repo":"code","state":"open"}`);
    expect(events.filter((e) => e.type === 'tool_end').map((e) => [e.toolName, e.exitCode])).toEqual([
      ['tool_search', 0],
      [TARGET, 0],
    ]);
  });
});

describe('deferred MCP tools: governance and options', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.cleanup();
    h = undefined;
  });

  it('keywords load the best matches; a deny rule still stops a loaded deferred tool before the server', async () => {
    h = await startHarness('anthropic', [toolCallResponse('tool_search', { query: 'merge pull request', limit: 2 }), toolCallResponse('mcp__gh1__merge_pull_request_14', { owner: 'a', repo: 'b' }), textResponse('denied')]);
    const session = await h.agent.sessionAsync(h.dir, { permissionPolicy: { deny: ['mcp__gh1__merge_*'], defaultDecision: 'allow' } });
    await withServers(session);
    const events = await streamAll(session, 'merge it');
    const loaded = toolResultsOf(h.server.requests[1]!)[0]?.content ?? '';
    expect(loaded).toContain('Loaded 2 tool(s)');
    expect(loaded).toContain('merge_pull_request_14');
    expect(events.find((e) => e.type === 'permission_denied')).toMatchObject({ toolName: 'mcp__gh1__merge_pull_request_14' });
    expect(events.filter((e) => e.type === 'tool_execution_start').map((e) => e.toolName)).toEqual(['tool_search']);
  });

  it('a deferred tool called without loading is still asked and hooked through the kernel', async () => {
    h = await startHarness('anthropic', [toolCallResponse('mcp__gh3__get_issues_1', { owner: 'a', repo: 'b' }), textResponse('done')]);
    const session = await h.agent.sessionAsync(h.dir, { permissionPolicy: { ask: ['mcp__gh3__*'], defaultDecision: 'allow' }, confirmationPolicy: { defaultTimeoutMs: 30_000 } });
    await withServers(session);
    const hooked: string[] = [];
    session.registerHook('watch', 'pre_tool_use', { tool: 'mcp__*' }, null, (event) => {
      hooked.push(String((event as { payload?: { tool?: string } }).payload?.tool ?? 'call'));
      return { action: 'continue' };
    });
    const events = await streamAll(session, 'get it', async (event) => {
      if (event.type === 'confirmation_required') expect(await session.confirmToolUse(event.toolId!, true, 'ok')).toBe(true);
    });
    expect(hooked).toHaveLength(1);
    expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(['confirmation_required', 'confirmation_received', 'tool_execution_start', 'tool_end']));
    expect(toolResultsOf(h.server.requests[1]!)[0]?.content).toBe('get_issues_1 ran {"owner":"a","repo":"b"}');
  });

  it('a resumed session keeps the tools its conversation loaded or called', async () => {
    h = await startHarness('anthropic', [toolCallResponse('tool_search', { query: `select:${TARGET}` }), textResponse('loaded'), textResponse('again')]);
    const store = new MemorySessionStore();
    const session = await h.agent.sessionAsync(h.dir, { sessionStore: store, sessionId: 'deferred-1' });
    await withServers(session);
    await session.send('load it');
    await session.save();
    await session.closeAsync();
    const resumed = await h.agent.resumeSessionAsync('deferred-1', { sessionStore: store });
    await withServers(resumed);
    await resumed.send('and now?');
    const names = toolNamesOf(h.server.requests.at(-1)!);
    expect(names.filter((name) => name.startsWith('mcp__'))).toEqual([TARGET]);
    expect(names).toContain('tool_search');
  });

  it('deferMcpTools: false (or the ACL key defer_mcp_tools = false) sends every definition', async () => {
    h = await startHarness('anthropic', [textResponse('one'), textResponse('two')]);
    const off = await h.agent.sessionAsync(h.dir, { deferMcpTools: false });
    await withServers(off);
    await off.send('hi');
    const names = toolNamesOf(h.server.requests[0]!);
    expect(names.filter((name) => name.startsWith('mcp__'))).toHaveLength(SERVERS.length * TOOLS_PER_SERVER);
    expect(names).not.toContain('tool_search');
    const fromAcl = await Agent.create(aclFor(h.server, 'anthropic', 'defer_mcp_tools = false'));
    try {
      const session = await fromAcl.sessionAsync(h.dir);
      await withServers(session);
      await session.send('hi');
      expect(toolNamesOf(h.server.requests[1]!).filter((name) => name.startsWith('mcp__'))).toHaveLength(SERVERS.length * TOOLS_PER_SERVER);
    } finally {
      await fromAcl.close();
    }
  });

  it('below the threshold nothing is deferred; deferMcpToolsThreshold: 0 defers any MCP tool; out-of-range values are rejected', async () => {
    h = await startHarness('anthropic', [textResponse('one'), textResponse('two')]);
    const roomy = await h.agent.sessionAsync(h.dir, { deferMcpToolsThreshold: 1 });
    await withServers(roomy);
    await roomy.send('hi');
    expect(toolNamesOf(h.server.requests[0]!)).not.toContain('tool_search');
    const eager = await h.agent.sessionAsync(h.dir, { deferMcpToolsThreshold: 0 });
    await eager.addMcp({ name: 'gh1', transport: { type: 'streamable-http', url: http.url } });
    await eager.send('hi');
    expect(toolNamesOf(h.server.requests[1]!).filter((name) => name.startsWith('mcp__'))).toEqual([]);
    expect(toolNamesOf(h.server.requests[1]!)).toContain('tool_search');
    for (const bad of [{ deferMcpToolsThreshold: 2 }, { deferMcpTools: 'no' }] as unknown as SessionOptions[]) {
      expect(() => h!.agent.session(h!.dir, bad)).toThrow(CodeError);
    }
  });
});
