import { describe, expect, it } from 'vitest';
import { createAgentEvent } from '@a3s-lab/code-core';
import { EventUpdates, planEntries } from './event-updates.js';
import { promptRequest } from './prompt-content.js';
import { replayUpdates } from './replay.js';

describe('ACP updates from v1 events', () => {
  it('maps text and reasoning to message and thought chunks; events without a counterpart to nothing', () => {
    const updates = new EventUpdates('/ws');
    expect(updates.map(createAgentEvent('text_delta', { text: 'Hi', turn: 1 }))).toEqual([{ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Hi' } }]);
    expect(updates.map(createAgentEvent('reasoning_delta', { text: 'hmm' }))).toEqual([{ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: 'hmm' } }]);
    expect(updates.map(createAgentEvent('turn_start', { turn: 1 }))).toEqual([]);
  });

  it('a write that creates a file is a diff without old text, with its absolute location', () => {
    const updates = new EventUpdates('/ws');
    const [call] = updates.map(createAgentEvent('tool_start', { tool_id: 't1', tool_name: 'write', args: { file_path: 'src/new.ts', content: 'x\n' }, origin: 'agent' }));
    expect(call).toMatchObject({ sessionUpdate: 'tool_call', toolCallId: 't1', title: 'write src/new.ts', kind: 'edit', status: 'pending', locations: [{ path: '/ws/src/new.ts' }] });
    expect(updates.map(createAgentEvent('tool_execution_start', { tool_id: 't1', tool_name: 'write' }))).toEqual([{ sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'in_progress' }]);
    const [end] = updates.map(createAgentEvent('tool_end', { tool_id: 't1', tool_name: 'write', exit_code: 0, output: 'wrote 2 bytes', duration_ms: 1, metadata: { path: 'src/new.ts', created: true, after: 'x\n' } }));
    expect(end).toMatchObject({ sessionUpdate: 'tool_call_update', status: 'completed', content: [{ type: 'diff', path: '/ws/src/new.ts', oldText: null, newText: 'x\n' }, { type: 'content', content: { type: 'text', text: 'wrote 2 bytes' } }] });
  });

  it('a failed edit shows no diff, only its output', () => {
    const updates = new EventUpdates('/ws');
    updates.map(createAgentEvent('tool_start', { tool_id: 't', tool_name: 'edit', args: { file_path: 'a', old_string: 'x', new_string: 'y' }, origin: 'agent' }));
    const [end] = updates.map(createAgentEvent('tool_end', { tool_id: 't', tool_name: 'edit', exit_code: 1, output: 'old_string not found', duration_ms: 1 }));
    expect(end).toMatchObject({ status: 'failed', content: [{ type: 'content', content: { type: 'text', text: 'old_string not found' } }] });
  });

  it('plans (update_plan, planning) become plan entries', () => {
    const plan = [{ step: 'read', status: 'completed' }, { step: 'fix', status: 'in_progress' }, { step: 'test', status: 'pending' }];
    expect(new EventUpdates('/ws').map(createAgentEvent('task_updated', { plan }))).toEqual([
      { sessionUpdate: 'plan', entries: [{ content: 'read', priority: 'medium', status: 'completed' }, { content: 'fix', priority: 'medium', status: 'in_progress' }, { content: 'test', priority: 'medium', status: 'pending' }] },
    ]);
    expect(planEntries([{ step: '', status: 'pending' }, 'junk'])).toEqual([]);
  });

  it('replays a conversation: user and agent text, tool calls with their results', () => {
    const updates = replayUpdates(
      [
        { role: 'user', content: [{ type: 'text', text: 'fix it' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'Editing.' }, { type: 'tool_call', id: 'c1', name: 'edit', input: { file_path: 'a.ts', old_string: '1', new_string: '2' } }] },
        { role: 'user', content: [{ type: 'tool_result', toolCallId: 'c1', content: 'edited', isError: false }] },
      ],
      '/ws',
    );
    expect(updates.map((u) => u.sessionUpdate)).toEqual(['user_message_chunk', 'agent_message_chunk', 'tool_call', 'tool_call_update']);
    expect(updates[3]).toMatchObject({ toolCallId: 'c1', status: 'completed', content: [{ type: 'diff', path: '/ws/a.ts', oldText: '1', newText: '2' }, { type: 'content' }] });
  });

  it('prompt content: images become attachments; an empty prompt is refused', () => {
    expect(promptRequest([{ type: 'image', data: 'AAAA', mimeType: 'image/png' }])).toEqual({ prompt: 'See the attached image.', attachments: [{ data: 'AAAA', mediaType: 'image/png' }] });
    expect(() => promptRequest([{ type: 'text', text: '  ' }])).toThrow(/empty/);
  });
});
