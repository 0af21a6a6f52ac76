// Approvals live in the session, not in the tab: two tabs (two useChat clients) and two v1 followers
// on one run all see the same pending confirmation; one tab answers it through the UI message stream
// protocol, and the answer is an event on every follower and in the other tab's replay.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textResponse, toolCallResponse } from '@a3s-lab/code-testing';
import type { AgentEvent, RunRecord } from '@a3s-lab/code';
import { chatTransport, TestChat } from './chat-test-client.js';
import { collectSse, startServerHarness } from './server-harness.js';
import type { ServerHarness } from './server-harness.js';

let h: ServerHarness;
beforeAll(async () => {
  h = await startServerHarness();
});
afterAll(async () => {
  await h.cleanup();
});

type AnyPart = Record<string, unknown> & { type: string };

describe('approvals live in the session', () => {
  it('two tabs and two followers see one pending approval; one tab answers; every follower gets the answer', async () => {
    h.model.setScenario([toolCallResponse('write', { file_path: 'shared.txt', content: 'both saw it\n' }), textResponse('Written once.')]);
    const { id } = await h.json<{ id: string }>('/api/sessions', { method: 'POST', body: JSON.stringify({ workspace: h.repo }) });
    const tabA = new TestChat({ id, transport: chatTransport(h.server.url, id) });
    await tabA.sendMessage({ text: 'Write shared.txt' });
    const [run] = (await h.json<{ runs: RunRecord[] }>(`/api/sessions/${id}/runs`)).runs;
    // Two followers of the run's v1 stream, concurrently.
    const followers = [1, 2].map(async () => (await collectSse(await h.api(`/api/sessions/${id}/runs/${run!.id}/stream`))).filter((m) => m.id !== null).map((m) => JSON.parse(m.data) as AgentEvent));

    // Tab B opens the session: history, then the resume request replays the running run.
    const tabB = new TestChat({ id, transport: chatTransport(h.server.url, id) });
    await tabB.resumeStream();
    const partA = tabA.lastMessage!.parts.find((p) => p.type === 'tool-write') as AnyPart;
    const partB = tabB.lastMessage!.parts.find((p) => p.type === 'tool-write') as AnyPart;
    expect(partB).toMatchObject({ state: 'approval-requested', approval: partA['approval'] });
    const pending = await h.json<{ confirmations: { confirmationId: string }[] }>(`/api/sessions/${id}/confirmations`);
    expect(pending.confirmations.map((c) => c.confirmationId)).toEqual([(partA['approval'] as { id: string }).id]);

    await tabA.addToolApprovalResponse({ id: (partA['approval'] as { id: string }).id, approved: true });
    const [first, second] = await Promise.all(followers);
    for (const events of [first!, second!]) {
      expect(events.find((e) => e.type === 'confirmation_received')?.payload).toMatchObject({ approved: true, tool_name: 'write' });
      expect(events.at(-1)?.type).toBe('agent_end');
    }
    expect(first!.map((e) => e.metadata?.['sequence'])).toEqual(second!.map((e) => e.metadata?.['sequence']));
    expect(readFileSync(join(h.repo, 'shared.txt'), 'utf8')).toBe('both saw it\n');
    await expect.poll(() => tabA.lastMessage?.metadata).toMatchObject({ status: 'completed' });

    // Tab B learns it by the next event on the run (the recipe the browser UI follows): the run has
    // ended, so nothing is left to resume (204) and its history is the same message as tab A's.
    expect((await h.api(`/api/sessions/${id}/chat/${id}/stream`)).status).toBe(204);
    tabB.messages = (await h.json<{ messages: typeof tabB.messages }>(`/api/sessions/${id}/messages`)).messages;
    expect(tabB.lastMessage).toEqual(tabA.lastMessage);
    expect(tabB.lastMessage!.parts.find((p) => p.type === 'tool-write')).toMatchObject({ state: 'output-available', approval: { approved: true } });
  });
});
