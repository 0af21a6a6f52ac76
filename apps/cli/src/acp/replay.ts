// A resumed session's conversation as the `session/update` notifications a client replays
// (`session/load`): the user's messages, the agent's messages and thoughts, each tool call with
// its result.
import type { Session } from '@a3s-lab/code';
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import { EventUpdates } from './event-updates.js';

type Conversation = ReturnType<Session['snapshot']>['conversation'];

/** The updates that replay `conversation` (tool results follow their calls). */
export function replayUpdates(conversation: Conversation, workspace: string): SessionUpdate[] {
  const updates: SessionUpdate[] = [];
  const mapper = new EventUpdates(workspace);
  const calls = new Map<string, { name: string; input: unknown }>();
  for (const message of conversation) {
    for (const part of message.content) {
      switch (part.type) {
        case 'text':
          if (part.text.length > 0) updates.push({ sessionUpdate: message.role === 'user' ? 'user_message_chunk' : 'agent_message_chunk', content: { type: 'text', text: part.text } });
          break;
        case 'reasoning':
          if (part.redacted !== true && part.text.length > 0) updates.push({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: part.text } });
          break;
        case 'image':
          updates.push({ sessionUpdate: message.role === 'user' ? 'user_message_chunk' : 'agent_message_chunk', content: { type: 'image', data: part.data, mimeType: part.mediaType } });
          break;
        case 'tool_call':
          calls.set(part.id, { name: part.name, input: part.input });
          updates.push(mapper.toolCall(part.id, part.name, part.input, 'pending'));
          break;
        case 'tool_result': {
          const call = calls.get(part.toolCallId);
          updates.push(mapper.toolResult(part.toolCallId, call?.name ?? '', call?.input ?? {}, part.isError ? 1 : 0, part.content, undefined));
          break;
        }
      }
    }
  }
  return updates;
}
