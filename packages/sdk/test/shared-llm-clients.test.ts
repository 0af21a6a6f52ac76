// Issue 36: with the built-in factory an agent builds one provider client per resolved provider
// settings and model and shares it among its sessions, over real HTTP to the scripted server.
import { realpathSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CodeError } from '@a3s-lab/code-core';
import type { LlmClient } from '@a3s-lab/code-core';
import { errorResponse, hangResponse, lastUserText, startScriptedModelServer, textResponse } from '@a3s-lab/code-testing';
import type { RecordedRequest, ScriptedModelServer, ScriptedResponse } from '@a3s-lab/code-testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Agent, createLlmClient } from '../src/index.js';
import type { LlmClientFactory } from '../src/index.js';
import { agentLlmClients } from '../src/agent.js';
import { aclFor, PROTOCOLS } from './harness.js';

let server: ScriptedModelServer;
let dir: string;
const agents: Agent[] = [];

beforeEach(async () => {
  server = await startScriptedModelServer();
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'a3s-shared-clients-')));
});
afterEach(async () => {
  await Promise.all(agents.splice(0).map((agent) => agent.close()));
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

async function agentOn(protocol: (typeof PROTOCOLS)[number], factory?: LlmClientFactory): Promise<Agent> {
  const agent = await Agent.create(aclFor(server, protocol), factory === undefined ? {} : { llmClientFactory: factory });
  agents.push(agent);
  return agent;
}

/** A scenario answering each prompt by its text: `fail` gets a 400, `hang` never answers (and resolves `hung`), others echo. */
function byPrompt(hung?: () => void): (request: RecordedRequest) => ScriptedResponse {
  return (request) => {
    const prompt = lastUserText(request);
    if (prompt === 'fail') return errorResponse(400, { message: 'bad request for this session only' });
    if (prompt === 'hang') {
      hung?.();
      return hangResponse();
    }
    return textResponse(`echo ${prompt}`);
  };
}

function modelRequests(): RecordedRequest[] {
  return server.requests.filter((request) => request.method === 'POST');
}

describe.each(PROTOCOLS)('one %s client per agent and model', (protocol) => {
  it('two sessions of one agent share one client; another model gets its own; close drops them', async () => {
    server.setScenario(byPrompt());
    const agent = await agentOn(protocol);
    const clients = agentLlmClients(agent);
    expect(clients?.size).toBe(0);
    const a = await agent.sessionAsync(dir);
    const b = await agent.sessionAsync(dir);
    expect(clients?.size).toBe(1);
    expect((await a.send('one')).text).toBe('echo one');
    expect((await b.send('two')).text).toBe('echo two');
    expect(clients?.size).toBe(1);
    // Each session still sends its own conversation, with the same tool definitions.
    const [first, second] = modelRequests();
    expect(first && lastUserText(first)).toBe('one');
    expect(second && lastUserText(second)).toBe('two');
    expect(JSON.stringify((second?.body as { tools?: unknown }).tools)).toBe(JSON.stringify((first?.body as { tools?: unknown }).tools));
    const other = protocol === 'anthropic' ? 'openai/gpt-test' : 'anthropic/claude-test';
    const c = await agent.sessionAsync(dir, { model: other });
    expect(clients?.size).toBe(2);
    expect((await c.send('three')).text).toBe('echo three');
    expect(modelRequests().at(-1)?.protocol).toBe(protocol === 'anthropic' ? 'openai' : 'anthropic');
    await agent.close();
    expect(clients?.size).toBe(0);
    expect(server.errors).toEqual([]);
  });

  it('a session whose request fails, or is cancelled while its request hangs, leaves the other session of the shared client untouched', async () => {
    let hung!: () => void;
    const hanging = new Promise<void>((resolve) => {
      hung = resolve;
    });
    server.setScenario(byPrompt(hung));
    const agent = await agentOn(protocol);
    const [a, b] = [await agent.sessionAsync(dir), await agent.sessionAsync(dir)];
    const [failed, answered] = await Promise.allSettled([a.send('fail'), b.send('fine')]);
    expect(failed.status === 'rejected' && CodeError.hasCode(failed.reason, 'LLM_ERROR')).toBe(true);
    expect(answered.status === 'fulfilled' ? answered.value.text : answered.reason).toBe('echo fine');
    // A's request hangs on the shared client; B's goes through meanwhile; cancelling A aborts A's only.
    const stuck = a.send('hang').catch((error: unknown) => error);
    await hanging;
    expect((await b.send('meanwhile')).text).toBe('echo meanwhile');
    await a.cancelAsync();
    expect(CodeError.isCancelled(await stuck)).toBe(true);
    expect((await b.send('after')).text).toBe('echo after');
    expect((await a.send('again')).text).toBe('echo again');
    expect(agentLlmClients(agent)?.size).toBe(1);
  });
});

describe('who gets a shared client', () => {
  it("a host's factory is called for every session, and no client is kept", async () => {
    server.setScenario(byPrompt());
    const built: LlmClient[] = [];
    const agent = await agentOn('anthropic', (config, model, env) => {
      const client = createLlmClient(config, model, env);
      built.push(client);
      return client;
    });
    expect(agentLlmClients(agent)).toBeNull();
    const a = await agent.sessionAsync(dir);
    const b = await agent.sessionAsync(dir);
    expect(built).toHaveLength(2);
    expect(built[0]).not.toBe(built[1]);
    expect((await a.send('x')).text).toBe('echo x');
    expect((await b.send('y')).text).toBe('echo y');
  });

  it('passing the built-in factory itself shares like the default', async () => {
    server.setScenario(byPrompt());
    const agent = await agentOn('openai', createLlmClient);
    await agent.sessionAsync(dir);
    await agent.sessionAsync(dir);
    expect(agentLlmClients(agent)?.size).toBe(1);
  });

  it('a missing key is refused for every session and nothing is kept', async () => {
    const acl = aclFor(server, 'anthropic').replace(/api_key = "[^"]*"\n\s*base_url = "[^"]*"/, '');
    const agent = await Agent.create(acl, { env: {} });
    agents.push(agent);
    for (let i = 0; i < 2; i++) {
      const error = await agent.sessionAsync(dir).catch((e: unknown) => e);
      expect(CodeError.hasCode(error, 'CONFIG_ERROR')).toBe(true);
    }
    expect(agentLlmClients(agent)?.size).toBe(0);
  });
});
