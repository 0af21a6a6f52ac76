// Approving `task` must not silently grant the child unconfirmed tools (issue 35, item 1): the
// confirmation says the child's confirmationInheritance and what it may run without asking, an
// agent-level default (`subagentConfirmationInheritance`, ACL `subagent_confirmation_inheritance`)
// lets a host choose, and deny rules keep holding in children whatever the mode.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startScriptedModelServer, textResponse, toolCallResponse, toolResultsOf } from '@a3s-lab/code-testing';
import type { RecordedRequest, ScriptedResponse } from '@a3s-lab/code-testing';
import { Agent } from '../src/index.js';
import type { AgentEvent } from '../src/index.js';
import { aclFor, startHarness } from './harness.js';
import type { Harness } from './harness.js';

type Json = Record<string, unknown>;
const messagesOf = (r: RecordedRequest): Json[] => ((r.body as Json)['messages'] as Json[] | undefined) ?? [];
const textOf = (content: unknown): string => (typeof content === 'string' ? content : Array.isArray(content) ? content.map((b: Json) => (typeof b['text'] === 'string' ? b['text'] : '')).join('') : '');
const firstUser = (r: RecordedRequest): string => textOf(messagesOf(r).find((m) => m['role'] === 'user')?.['content']);
const step = (r: RecordedRequest): number => messagesOf(r).filter((m) => m['role'] === 'assistant').length;

function routed(scripts: Record<string, readonly ScriptedResponse[]>) {
  return (r: RecordedRequest): ScriptedResponse => {
    const key = Object.keys(scripts).find((k) => firstUser(r).startsWith(k));
    const response = key === undefined ? undefined : scripts[key]?.[step(r)];
    if (response === undefined) throw new Error(`no script step for ${JSON.stringify(firstUser(r).slice(0, 60))}`);
    return response;
  };
}

// The parent delegates to `general`; the child writes a file (policy: ask) and runs bash (policy: deny).
const script = routed({
  'Delegate the note': [toolCallResponse('task', { agent: 'general', description: 'note', prompt: 'Write the note, then clean up.' }), textResponse('delegated')],
  'Write the note, then clean up.': [toolCallResponse('write', { file_path: 'note.txt', content: 'hello' }), toolCallResponse('bash', { command: 'touch bashed.txt' }), textResponse('child done')],
});
const eagerParent = routed({ 'Delegate eagerly': [toolCallResponse('task', { agent: 'eager', description: 'note', prompt: 'Write the note, then clean up.' }), textResponse('delegated')] });
const policy = { ask: ['task', 'write'], deny: ['bash*'], defaultDecision: 'allow' } as const;

let h: Harness | undefined;
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
});

/** Approves `task` only; every other ask is rejected. Returns the confirmation events seen. */
function approveTaskOnly(session: { onEvent(l: (e: AgentEvent) => void): unknown; confirmToolUse(id: string, ok: boolean, reason?: string): Promise<boolean> }): AgentEvent[] {
  const asked: AgentEvent[] = [];
  session.onEvent((e) => {
    if (e.type !== 'confirmation_required') return;
    asked.push(e);
    void session.confirmToolUse(String(e.payload['confirmation_id']), e.toolName === 'task', e.toolName === 'task' ? 'ok' : 'no');
  });
  return asked;
}

describe('task confirmations say what the child may run without asking', () => {
  it('default (auto_approve): the notice lists the unconfirmed tools; the child write runs unasked, the denied bash does not', async () => {
    h = await startHarness('anthropic', script);
    const session = await h.agent.sessionAsync(h.dir, { permissionPolicy: policy });
    const asked = approveTaskOnly(session);
    await session.send('Delegate the note');
    expect(asked.map((e) => e.toolName)).toEqual(['task']);
    const notice = String(asked[0]?.payload['notice']);
    expect(notice).toContain("subagent 'general' (confirmationInheritance: auto_approve) may run without asking:");
    expect(notice).toMatch(/\bwrite\b/);
    expect(notice).toMatch(/\bbash\b/);
    expect(notice).toContain('deny rules still hold');
    expect(notice).not.toMatch(/\btask\b.*\btask\b/); // never the delegation tools themselves
    expect(existsSync(join(h.dir, 'note.txt'))).toBe(true);
    // The deny rule holds in the auto-approving child.
    expect(existsSync(join(h.dir, 'bashed.txt'))).toBe(false);
    const child = h.server.requests.filter((r) => firstUser(r).startsWith('Write the note')).at(-1)!;
    expect(toolResultsOf(child).at(-1)?.content).toMatch(/Permission denied: parent session policy/);
  });

  it('subagentConfirmationInheritance: inherit_parent: approving task does not approve the child write; the child asks for itself', async () => {
    h = await startHarness('openai', script);
    const session = await h.agent.sessionAsync(h.dir, { permissionPolicy: policy, subagentConfirmationInheritance: 'inherit_parent' });
    const asked = approveTaskOnly(session);
    await session.send('Delegate the note');
    expect(asked.map((e) => e.toolName)).toEqual(['task', 'write']);
    expect(asked[0]?.payload['notice']).toContain("subagent 'general' (confirmationInheritance: inherit_parent) asks you for every call policy would ask about");
    expect(asked[1]?.toolId).toMatch(/^task_[^/]+\//);
    expect(existsSync(join(h.dir, 'note.txt'))).toBe(false);
    expect(existsSync(join(h.dir, 'bashed.txt'))).toBe(false);
  });

  it('a pending task confirmation carries the notice too (pendingConfirmations)', async () => {
    h = await startHarness('anthropic', script);
    const session = await h.agent.sessionAsync(h.dir, { permissionPolicy: policy, subagentConfirmationInheritance: 'deny_on_ask' });
    let pending: Promise<unknown[]> = Promise.resolve([]);
    session.onEvent((e) => {
      if (e.type !== 'confirmation_required') return;
      pending = session.pendingConfirmations();
      void pending.then(() => session.confirmToolUse(e.toolId, true));
    });
    await session.send('Delegate the note');
    expect(await pending).toEqual([expect.objectContaining({ toolName: 'task', notice: expect.stringContaining('(confirmationInheritance: deny_on_ask) may run only what policy allows outright') })]);
    expect(existsSync(join(h.dir, 'note.txt'))).toBe(false);
  });
});

describe('subagent_confirmation_inheritance (ACL) and worker specs', () => {
  it('the ACL key sets the default of every session; a worker spec of its own wins', async () => {
    const server = await startScriptedModelServer({ scenario: (r) => (firstUser(r).startsWith('Delegate eagerly') ? eagerParent(r) : script(r)) });
    h = await startHarness('anthropic', script);
    const agent = await Agent.create(aclFor(server, 'anthropic', 'subagent_confirmation_inheritance = "inherit_parent"'));
    try {
      expect(agent.config.subagentConfirmationInheritance).toBe('inherit_parent');
      const session = await agent.sessionAsync(h.dir, { permissionPolicy: policy, workerAgents: [{ name: 'eager', description: 'auto', kind: 'implementer', confirmationInheritance: 'auto_approve' }] });
      const asked = approveTaskOnly(session);
      await session.send('Delegate the note');
      // The built-in agent follows the ACL default: its write is asked about (and rejected).
      expect(asked.map((e) => e.toolName)).toEqual(['task', 'write']);
      expect(existsSync(join(h.dir, 'note.txt'))).toBe(false);
      const second = await agent.sessionAsync(h.dir, { permissionPolicy: policy, workerAgents: [{ name: 'eager', description: 'auto', kind: 'implementer', confirmationInheritance: 'auto_approve' }] });
      const askedAgain = approveTaskOnly(second);
      await second.send('Delegate eagerly');
      // The worker's own confirmationInheritance wins: only the task is asked about, the write runs unasked.
      expect(askedAgain.map((e) => e.toolName)).toEqual(['task']);
      expect(askedAgain[0]?.payload['notice']).toContain("subagent 'eager' (confirmationInheritance: auto_approve) may run without asking");
      expect(existsSync(join(h.dir, 'note.txt'))).toBe(true);
      expect(existsSync(join(h.dir, 'bashed.txt'))).toBe(false);
    } finally {
      await agent.close();
      await server.close();
    }
  });

  it('a bad value is a SESSION_CONFIGURATION_ERROR naming the option, and a CONFIG_ERROR in the ACL', async () => {
    h = await startHarness('anthropic', script);
    await expect(h.agent.sessionAsync(h.dir, { subagentConfirmationInheritance: 'yes' as never })).rejects.toMatchObject({ code: 'SESSION_CONFIGURATION_ERROR', details: { field: 'subagentConfirmationInheritance' } });
    await expect(Agent.create(aclFor(h.server, 'anthropic', 'subagent_confirmation_inheritance = "always"'))).rejects.toMatchObject({ code: 'CONFIG_ERROR' });
  });
});
