// POST /api/sessions/:id/chat speaks the AI SDK UI message stream, driven here by the AI SDK's own
// client code (`ai`: DefaultChatTransport, readUIMessageStream, AbstractChat = what useChat wraps)
// against a real server, agent and scripted model: text and tool parts with inputs and outputs,
// approvals answered with the client's next request (the tool runs only after), and a resumed
// stream after a dropped connection that yields the same message.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readUIMessageStream } from 'ai';
import type { UIMessage } from 'ai';
import { textResponse, toolCallResponse } from '@a3s-lab/code-testing';
import type { RunRecord } from '@a3s-lab/code';
import { chatTransport, TestChat } from './chat-test-client.js';
import { startServerHarness } from './server-harness.js';
import type { ServerHarness } from './server-harness.js';

let h: ServerHarness;
beforeAll(async () => {
  h = await startServerHarness();
});
afterAll(async () => {
  await h.cleanup();
});

async function newSession(): Promise<string> {
  return (await h.json<{ id: string }>('/api/sessions', { method: 'POST', body: JSON.stringify({ workspace: h.repo }) })).id;
}

const userMessage = (text: string): UIMessage => ({ id: `u-${text.length}`, role: 'user', parts: [{ type: 'text', text }] });

async function lastMessageOf(stream: ReadableStream<never> | ReadableStream, message?: UIMessage): Promise<UIMessage> {
  let last: UIMessage | undefined;
  for await (const m of readUIMessageStream({ stream, ...(message === undefined ? {} : { message }) })) last = m;
  if (last === undefined) throw new Error('no message');
  return structuredClone(last);
}

type AnyPart = UIMessage['parts'][number] & Record<string, unknown>;
const toolParts = (message: UIMessage): AnyPart[] => message.parts.filter((p) => p.type.startsWith('tool-')) as AnyPart[];

describe('POST /api/sessions/:id/chat (UI message stream)', () => {
  it('a run as one assistant message: the text part and tool parts with inputs and outputs; finish with usage', async () => {
    h.model.setScenario([toolCallResponse('read', { file_path: 'README.md' }), textResponse(['It says ', 'sample.'])]);
    const id = await newSession();
    const stream = await chatTransport(h.server.url, id).sendMessages({ chatId: id, messages: [userMessage('What does the README say?')], trigger: 'submit-message', messageId: undefined, abortSignal: undefined });
    const message = await lastMessageOf(stream);
    const runs = await h.json<{ runs: RunRecord[] }>(`/api/sessions/${id}/runs`);
    const run = runs.runs[0];
    expect(run).toMatchObject({ status: 'completed', prompt: 'What does the README say?' });
    expect(message.id).toBe(run?.id);
    expect(message.parts.map((p) => p.type)).toEqual(['step-start', 'tool-read', 'step-start', 'text']);
    const [read] = toolParts(message);
    expect(read).toMatchObject({ state: 'output-available', input: { file_path: 'README.md' } });
    expect((read?.['output'] as { output: string; exitCode: number }).output).toContain('# sample');
    expect((read?.['output'] as { exitCode: number }).exitCode).toBe(0);
    expect(message.parts.at(-1)).toMatchObject({ type: 'text', text: 'It says sample.', state: 'done' });
    expect(message.metadata).toMatchObject({ runId: run?.id, sessionId: id, status: 'completed', usage: { inputTokens: expect.any(Number), outputTokens: expect.any(Number) } });

    // History: the same message, folded server-side from the same projection, after the prompt.
    const history = await h.json<{ messages: UIMessage[] }>(`/api/sessions/${id}/messages`);
    expect(history.messages).toEqual([{ id: `${run?.id ?? ''}:prompt`, role: 'user', parts: [{ type: 'text', text: 'What does the README say?' }] }, message]);

    // The wire itself: the protocol header, SSE data lines, [DONE] last; a finished run replays whole.
    const replay = await h.api(`/api/sessions/${id}/chat/${run?.id ?? ''}/stream`);
    expect(replay.headers.get('x-vercel-ai-ui-message-stream')).toBe('v1');
    expect(replay.headers.get('content-type')).toContain('text/event-stream');
    const wire = await replay.text();
    const data = wire.split('\n\n').filter((b) => b.startsWith('data: ')).map((b) => b.slice(6));
    expect(data.at(-1)).toBe('[DONE]');
    // Consecutive deltas collapsed (their count is the model's chunking).
    const types = data.slice(0, -1).map((d) => (JSON.parse(d) as { type: string }).type).filter((t, i, all) => !(t.endsWith('-delta') && all[i - 1] === t));
    expect(types).toEqual([
      'start', 'start-step', 'tool-input-start', 'tool-input-delta', 'tool-input-available', 'tool-output-available', 'finish-step',
      'start-step', 'text-start', 'text-delta', 'text-end', 'finish-step', 'finish',
    ]);
  });

  it('approvals round-trip through the protocol: the tool runs only after the next request approves it; a denial is drawn as denied', async () => {
    h.model.setScenario([toolCallResponse('write', { file_path: 'yes.txt', content: 'approved\n' }), toolCallResponse('write', { file_path: 'no.txt', content: 'denied\n' }), textResponse('One written.')]);
    const id = await newSession();
    const chat = new TestChat({ id, transport: chatTransport(h.server.url, id) });
    await chat.sendMessage({ text: 'Write two files' });
    // The stream stopped at the pending approval; nothing ran.
    let [first] = toolParts(chat.lastMessage!);
    expect(first).toMatchObject({ type: 'tool-write', state: 'approval-requested', input: { file_path: 'yes.txt' } });
    expect(existsSync(join(h.repo, 'yes.txt'))).toBe(false);
    expect((await h.json<{ confirmations: { confirmationId: string }[] }>(`/api/sessions/${id}/confirmations`)).confirmations.map((c) => c.confirmationId)).toEqual([(first?.['approval'] as { id: string }).id]);

    await chat.addToolApprovalResponse({ id: (first?.['approval'] as { id: string }).id, approved: true });
    await expect.poll(() => toolParts(chat.lastMessage!).length).toBe(2);
    await expect.poll(() => chat.status).toBe('ready');
    expect(readFileSync(join(h.repo, 'yes.txt'), 'utf8')).toBe('approved\n');
    const second = toolParts(chat.lastMessage!)[1];
    expect(second).toMatchObject({ state: 'approval-requested', input: { file_path: 'no.txt' } });

    await chat.addToolApprovalResponse({ id: (second?.['approval'] as { id: string }).id, approved: false, reason: 'not that one' });
    await expect.poll(() => chat.lastMessage?.metadata).toMatchObject({ status: 'completed' });
    await expect.poll(() => chat.status).toBe('ready');
    expect(existsSync(join(h.repo, 'no.txt'))).toBe(false);
    const message = chat.lastMessage!;
    [first] = toolParts(message);
    expect(first).toMatchObject({ state: 'output-available', approval: { approved: true }, output: { exitCode: 0 } });
    expect(toolParts(message)[1]).toMatchObject({ state: 'output-denied', approval: { approved: false, reason: 'not that one' } });
    expect(message.parts.at(-1)).toMatchObject({ type: 'text', text: 'One written.' });
    // One message for the whole run, two user-facing requests after the first; the replay of the run is the same message.
    expect(chat.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    const replayed = await lastMessageOf(await chatTransport(h.server.url, id).reconnectToStream({ chatId: message.id }).then((s) => s!));
    expect(replayed.parts).toEqual(message.parts);
    const history = await h.json<{ messages: UIMessage[] }>(`/api/sessions/${id}/messages`);
    expect(history.messages[1]).toEqual(message);
  });

  it('a dropped connection does not cancel the run; the resume request replays it into the same message', async () => {
    h.model.setScenario([toolCallResponse('bash', { command: 'echo resumed' }), textResponse('Resumed.')]);
    const id = await newSession();
    // A network that fails once the tool call's input has arrived, as a dropped Wi-Fi would.
    let drop = true;
    const flaky: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (!drop || init?.method !== 'POST' || response.body === null) return response;
      drop = false;
      const reader = response.body.getReader();
      let seen = '';
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          const { done, value } = await reader.read();
          if (done) return controller.close();
          seen += new TextDecoder().decode(value);
          if (seen.includes('tool-input-available')) {
            await reader.cancel();
            return controller.error(new TypeError('network error'));
          }
          controller.enqueue(value);
        },
      });
      return new Response(body, { status: response.status, headers: response.headers });
    };
    const chat = new TestChat({ id, transport: chatTransport(h.server.url, id, flaky) });
    await chat.sendMessage({ text: 'echo resumed' });
    expect(chat.status).toBe('error');
    // The run goes on server-side, waiting for its approval.
    const [run] = (await h.json<{ runs: RunRecord[] }>(`/api/sessions/${id}/runs`)).runs;
    expect(run?.status).toBe('running');
    await chat.resumeStream();
    const resumed = structuredClone(chat.lastMessage!);
    expect(resumed.id).toBe(run?.id);
    expect(toolParts(resumed)).toMatchObject([{ type: 'tool-bash', state: 'approval-requested', input: { command: 'echo resumed' } }]);
    // The same message as an uninterrupted reader of the same run gets.
    const other = await lastMessageOf((await chatTransport(h.server.url, id).reconnectToStream({ chatId: id }))!);
    expect(other).toEqual(resumed);
    // Answer it through the protocol; the run completes.
    await chat.addToolApprovalResponse({ id: (toolParts(resumed)[0]?.['approval'] as { id: string }).id, approved: true });
    await expect.poll(() => chat.lastMessage?.metadata).toMatchObject({ status: 'completed' });
    expect(toolParts(chat.lastMessage!)[0]).toMatchObject({ state: 'output-available', output: { output: expect.stringContaining('resumed') } });
    // Nothing running: the resume request answers 204 (the transport's "nothing to resume").
    expect((await h.api(`/api/sessions/${id}/chat/${id}/stream`)).status).toBe(204);
  });

  it('refuses what it would not act on: regenerate, another chat id, non-text parts, unknown fields', async () => {
    const id = await newSession();
    const post = async (body: unknown): Promise<[number, string]> => {
      const r = await h.api(`/api/sessions/${id}/chat`, { method: 'POST', body: JSON.stringify(body) });
      return [r.status, ((await r.json()) as { error: { code: string } }).error.code];
    };
    const base = { id, messages: [userMessage('hi')], trigger: 'submit-message' };
    expect(await post({ ...base, trigger: 'regenerate-message' })).toEqual([400, 'BAD_REQUEST']);
    expect(await post({ ...base, id: 'other' })).toEqual([400, 'BAD_REQUEST']);
    expect(await post({ ...base, messages: [{ id: 'u', role: 'user', parts: [{ type: 'file', url: 'data:,x', mediaType: 'text/plain' }] }] })).toEqual([400, 'BAD_REQUEST']);
    expect(await post({ ...base, model: 'gpt' })).toEqual([400, 'BAD_REQUEST']);
    expect(await post({ ...base, messages: [{ id: 'run_x', role: 'assistant', parts: [{ type: 'tool-bash', toolCallId: 't', state: 'approval-responded', approval: { id: 'c', approved: true } }] }] })).toEqual([404, 'NOT_FOUND']);
  });
});
