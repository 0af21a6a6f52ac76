// Loading an agent directory never widens authority (issue 35, item 2): its `agent.acl`
// permission block merges strictest-wins over the host's (deny and ask lists union, the stricter
// default), and the host's policy stays a ceiling of every session the directory opens.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startScriptedModelServer, textResponse, toolCallResponse, toolResultsOf } from '@a3s-lab/code-testing';
import type { ScriptedModelServer, ScriptedResponse } from '@a3s-lab/code-testing';
import { Agent } from '../src/index.js';
import type { AgentEvent } from '../src/index.js';
import { aclFor } from './harness.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setUp(hostPolicy: string, directoryAcl: string, script: readonly ScriptedResponse[]): Promise<{ agent: Agent; server: ScriptedModelServer; ws: string }> {
  const root = mkdtempSync(join(tmpdir(), 'a3s-dir-policy-'));
  cleanups.push(() => rmSync(root, { recursive: true, force: true }));
  const ws = join(root, 'ws');
  const dirs = join(root, 'agents');
  mkdirSync(ws);
  mkdirSync(join(dirs, 'rogue'), { recursive: true });
  writeFileSync(join(dirs, 'rogue', 'instructions.md'), 'You are the rogue agent.\n');
  writeFileSync(join(dirs, 'rogue', 'agent.acl'), directoryAcl);
  const server = await startScriptedModelServer({ scenario: [...script] });
  cleanups.push(() => server.close());
  const agent = await Agent.create(aclFor(server, 'anthropic', `agent_dirs = [${JSON.stringify(dirs)}]\n${hostPolicy}`));
  cleanups.push(() => agent.close());
  return { agent, server, ws };
}

describe("an agent directory's agent.acl cannot lift the host's permission rules", () => {
  it('deny = [] and allow = ["bash(*)"] in the directory leave the host deny "bash*" in force', async () => {
    const { agent, server, ws } = await setUp(
      'permission_policy {\n  deny = ["bash*"]\n  default_decision = "allow"\n}',
      'permission_policy {\n  deny = []\n  allow = ["bash(*)"]\n}\n',
      [toolCallResponse('bash', { command: 'touch bashed.txt' }), textResponse('tried')],
    );
    const session = await agent.sessionForAgentAsync(ws, 'rogue');
    expect(session.snapshot().options.permissionPolicy).toMatchObject({ deny: ['bash*'], defaultDecision: 'allow' });
    await session.send('Run it');
    expect(existsSync(join(ws, 'bashed.txt'))).toBe(false);
    expect(toolResultsOf(server.requests.at(-1)!)[0]?.content).toMatch(/Permission denied: .*bash\*/);
  });

  it("the directory's looser default and its enabled = false cannot loosen the host's ask; its own denies add up", async () => {
    const { agent, ws } = await setUp(
      'permission_policy {\n  allow = ["read"]\n  default_decision = "ask"\n}',
      'permission_policy {\n  enabled = false\n  default_decision = "allow"\n  deny = ["git*"]\n}\n',
      [toolCallResponse('write', { file_path: 'out.txt', content: 'x' }), textResponse('tried')],
    );
    const session = await agent.sessionForAgentAsync(ws, 'rogue');
    expect(session.snapshot().options.permissionPolicy).toMatchObject({ allow: ['read'], defaultDecision: 'ask' });
    const asked: AgentEvent[] = [];
    session.onEvent((e) => {
      if (e.type !== 'confirmation_required') return;
      asked.push(e);
      void session.confirmToolUse(e.toolId, false, 'no');
    });
    await session.send('Write it');
    expect(asked.map((e) => e.toolName)).toEqual(['write']);
    expect(existsSync(join(ws, 'out.txt'))).toBe(false);
  });

  it('a stricter directory narrows: its deny joins the host rules', async () => {
    const { agent, server, ws } = await setUp(
      'permission_policy {\n  default_decision = "allow"\n}',
      'permission_policy {\n  deny = ["write"]\n}\n',
      [toolCallResponse('write', { file_path: 'out.txt', content: 'x' }), textResponse('tried')],
    );
    const session = await agent.sessionForAgentAsync(ws, 'rogue');
    await session.send('Write it');
    expect(existsSync(join(ws, 'out.txt'))).toBe(false);
    expect(toolResultsOf(server.requests.at(-1)!)[0]?.content).toMatch(/Permission denied/);
  });
});
