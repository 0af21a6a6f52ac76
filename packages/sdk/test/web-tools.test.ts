// The web tools end to end through the public SDK: on the tool surface within the first-request
// budget, wired to the safe client with the ACL / session allow-list, governed like every tool.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startScriptedModelServer, textResponse, toolCallResponse, toolNamesOf, toolResultsOf } from '@a3s-lab/code-testing';
import { Agent, CodeError } from '../src/index.js';
import type { AgentEvent } from '../src/index.js';
import { aclFor, startHarness } from './harness.js';
import type { Harness } from './harness.js';

/**
 * What the two web tools may add to the first model request (their definitions as sent). The
 * 16 KB first-request budget had ~700 B of room when they were added; the definitions are kept
 * terse so they cost about that (see docs/decisions/web-tools.md for the whole request's size).
 */
const WEB_TOOLS_FIRST_REQUEST_BYTES = 1200;

const hits: string[] = [];
const site = createServer((request, response) => {
  hits.push(request.url ?? '');
  if ((request.url ?? '').startsWith('/ddg/')) {
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end('<div id="links"><div class="result"><a class="result__a" href="https://docs.example.org/">Example docs</a><a class="result__snippet">The docs.</a></div></div>');
    return;
  }
  if ((request.url ?? '').startsWith('/large')) {
    response.writeHead(200, { 'content-type': 'text/plain' });
    response.end('x'.repeat(100_000));
    return;
  }
  response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  response.end('<html><head><title>Changelog</title></head><body><h2>v2.0</h2><p>Breaking: <code>send()</code> is async.</p></body></html>');
});
await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
afterAll(() => new Promise<void>((resolve) => site.close(() => resolve())));

let h: Harness | undefined;
const agents: Agent[] = [];
afterEach(async () => {
  for (const agent of agents.splice(0)) await agent.close();
  await h?.cleanup();
  h = undefined;
});

async function streamAll(session: { stream(prompt: string): Promise<AsyncIterable<AgentEvent>> }, prompt: string): Promise<AgentEvent[]> {
  const events: AgentEvent[] = [];
  for await (const event of await session.stream(prompt)) events.push(event);
  return events;
}

describe('web tools through the SDK', () => {
  it('are on the tool surface and add at most 1.2 KB to the first request', async () => {
    h = await startHarness('anthropic', [textResponse('hi')]);
    const session = h.agent.session(h.dir);
    expect(session.toolNames()).toEqual(expect.arrayContaining(['web_fetch', 'web_search']));
    await session.send('hello');
    const first = h.server.requests[0]!;
    expect(toolNamesOf(first)).toEqual(expect.arrayContaining(['web_fetch', 'web_search']));
    const tools = (first.body as { tools: { name: string }[] }).tools.filter((tool) => tool.name.startsWith('web_'));
    expect(tools).toHaveLength(2);
    expect(Buffer.byteLength(JSON.stringify(tools))).toBeLessThanOrEqual(WEB_TOOLS_FIRST_REQUEST_BYTES);
  });

  it('fetches an allow-listed page from the ACL web_fetch block; the model sees markdown', async () => {
    const server = await startScriptedModelServer({ scenario: [toolCallResponse('web_fetch', { url: `${origin}/changelog` }), textResponse('send() is async now.')] });
    try {
      const agent = await Agent.create(aclFor(server, 'anthropic', 'web_fetch { allow_hosts = ["127.0.0.1"] }'));
      agents.push(agent);
      const session = agent.session(process.cwd());
      const events = await streamAll(session, 'what changed?');
      expect(events.find((event) => event.type === 'tool_end')?.payload['exit_code']).toBe(0);
      const shown = toolResultsOf(server.requests[1]!)[0]?.content ?? '';
      expect(shown).toContain('# Changelog');
      expect(shown).toContain('Breaking: `send()` is async.');
    } finally {
      await server.close();
    }
  });

  it('refuses 127.0.0.1 without the allow-list: nothing is sent', async () => {
    hits.length = 0;
    h = await startHarness('anthropic', []);
    const result = await h.agent.session(h.dir).tool('web_fetch', { url: `${origin}/changelog` });
    expect(result.exitCode).toBe(1);
    expect(result.output).toMatch(/refused to fetch/);
    expect(hits).toEqual([]);
  });

  it('takes the session option webFetch over the config, and checks it', async () => {
    h = await startHarness('anthropic', []);
    const session = h.agent.session(h.dir, { webFetch: { allowHosts: ['127.0.0.1'] } });
    expect((await session.tool('web_fetch', { url: `${origin}/changelog`, format: 'text' })).output).toContain('Breaking: send() is async.');
    const capped = h.agent.session(h.dir, { webFetch: { allowHosts: ['127.0.0.1'], maxResponseBytes: 2048 } });
    expect((await capped.tool('web_fetch', { url: `${origin}/large` })).metadata).toMatchObject({ total_bytes: 2048, source_truncated: true });
    const error = (() => {
      try {
        h.agent.session(h.dir, { webFetch: { allowHosts: ['http://127.0.0.1/'] } });
      } catch (thrown) {
        return thrown;
      }
      return null;
    })();
    expect(CodeError.hasCode(error, 'SESSION_CONFIGURATION_ERROR')).toBe(true);
    expect((error as CodeError).details['field']).toBe('webFetch.allowHosts[0]');
  });

  it('keeps webFetch across save and resume', async () => {
    h = await startHarness('anthropic', []);
    const session = h.agent.session(h.dir, { webFetch: { allowHosts: ['127.0.0.1'] } });
    await session.save();
    const resumed = await h.agent.resumeSessionAsync(session.id);
    expect((await resumed.tool('web_fetch', { url: `${origin}/changelog` })).exitCode).toBe(0);
  });

  it('is governed: a deny rule on the domain stops the call before any request', async () => {
    hits.length = 0;
    h = await startHarness('anthropic', [toolCallResponse('web_fetch', { url: `${origin}/changelog` }), textResponse('denied')]);
    const session = h.agent.session(h.dir, { webFetch: { allowHosts: ['127.0.0.1'] }, permissionPolicy: { deny: ['web_fetch(domain:127.0.0.1)'], defaultDecision: 'allow' } });
    const events = await streamAll(session, 'fetch it');
    expect(events.find((event) => event.type === 'permission_denied')).toMatchObject({ payload: { rule: 'web_fetch(domain:127.0.0.1)' } });
    expect(hits).toEqual([]);
  });

  it('a domain deny holds for the trailing-dot and upper-case spelling of the host (web_fetch(domain:evil.invalid))', async () => {
    h = await startHarness('anthropic', [toolCallResponse('web_fetch', { url: 'https://EVIL.invalid./x' }), textResponse('denied')]);
    const session = h.agent.session(h.dir, { permissionPolicy: { deny: ['web_fetch(domain:evil.invalid)'], defaultDecision: 'allow' } });
    const events = await streamAll(session, 'fetch it');
    expect(events.find((event) => event.type === 'permission_denied')).toMatchObject({ payload: { rule: 'web_fetch(domain:evil.invalid)' } });
  });

  it('asks a human under an ask rule; a refusal sends nothing', async () => {
    hits.length = 0;
    h = await startHarness('anthropic', [toolCallResponse('web_fetch', { url: `${origin}/changelog` }), textResponse('ok')]);
    const session = h.agent.session(h.dir, { webFetch: { allowHosts: ['127.0.0.1'] }, permissionPolicy: { ask: ['web_fetch'], defaultDecision: 'allow' }, confirmationPolicy: { defaultTimeoutMs: 30_000 } });
    const events: AgentEvent[] = [];
    for await (const event of await session.stream('fetch it')) {
      events.push(event);
      if (event.type === 'confirmation_required') {
        const [pending] = await session.pendingConfirmations();
        expect(pending).toMatchObject({ toolName: 'web_fetch' });
        await session.confirmToolUse(pending!.toolId, false, 'not that site');
      }
    }
    expect(events.find((event) => event.type === 'tool_end')?.payload['error_kind']).toMatchObject({ type: 'permission_denied' });
    expect(hits).toEqual([]);
  });

  it('searches with engines configured in the ACL', async () => {
    const server = await startScriptedModelServer({ scenario: [] });
    try {
      const agent = await Agent.create(aclFor(server, 'anthropic', `web_fetch { allow_hosts = ["127.0.0.1"] }\nweb_search {\n  engines "local" { kind = "duckduckgo"  base_url = "${origin}/ddg/html/" }\n}`));
      agents.push(agent);
      const result = await agent.session(process.cwd()).tool('web_search', { query: 'example docs' });
      expect(result.exitCode).toBe(0);
      expect(result.output).toContain('1. Example docs');
      expect(hits.at(-1)).toBe('/ddg/html/?q=example+docs');
    } finally {
      await server.close();
    }
  });

  it('rejects an API engine without a key and an engine of unknown kind at Agent.create', async () => {
    const server = await startScriptedModelServer({ scenario: [] });
    try {
      await expect(Agent.create(aclFor(server, 'anthropic', 'web_search {\n  engines "brave" {}\n}'))).rejects.toMatchObject({ code: 'CONFIG_ERROR', message: expect.stringMatching(/api_key/) });
      await expect(Agent.create(aclFor(server, 'anthropic', 'web_search {\n  engines "mine" {}\n}'))).rejects.toMatchObject({ code: 'CONFIG_ERROR', message: expect.stringMatching(/kind/) });
    } finally {
      await server.close();
    }
  });
});
