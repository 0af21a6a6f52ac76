import type { UIMessageChunk } from './ui-message-chunk.js';

/** One part of a UI message as the protocol's client builds it (`text`, `reasoning`, `step-start`, `tool-<name>`, `data-<name>`). */
export interface UIMessagePart {
  readonly type: string;
  readonly [field: string]: unknown;
}

/** A UI message (`UIMessage` of the AI SDK) as this host serves it for history. */
export interface UIMessage {
  readonly id: string;
  readonly role: 'user' | 'assistant';
  readonly metadata?: Readonly<Record<string, unknown>>;
  readonly parts: readonly UIMessagePart[];
}

type Part = Record<string, unknown> & { type: string };

/**
 * Folds the chunks of one stream into the message a protocol client ends up with (what
 * `readUIMessageStream` yields last), for the history endpoint: a reloaded page or a second tab
 * gets the same message the live stream built.
 */
export function foldUIMessage(chunks: readonly UIMessageChunk[]): UIMessage {
  let id = '';
  let metadata: Record<string, unknown> | undefined;
  const parts: Part[] = [];
  const open = new Map<string, Part>();
  const tool = (toolCallId: string): Part | undefined => parts.findLast((p) => p['toolCallId'] === toolCallId);
  for (const chunk of chunks) {
    switch (chunk.type) {
      case 'start':
        id = chunk.messageId;
        metadata = { ...metadata, ...chunk.messageMetadata };
        break;
      case 'finish':
        metadata = { ...metadata, ...chunk.messageMetadata };
        break;
      case 'start-step':
        parts.push({ type: 'step-start' });
        break;
      case 'reset-step': {
        const stepStart = parts.findLastIndex((p) => p.type === 'step-start');
        parts.splice(stepStart + 1);
        open.clear();
        break;
      }
      case 'text-start':
      case 'reasoning-start': {
        const part: Part = chunk.type === 'text-start' ? { type: 'text', text: '', state: 'streaming' } : { type: 'reasoning', id: chunk.id, text: '', state: 'streaming' };
        open.set(chunk.id, part);
        parts.push(part);
        break;
      }
      case 'text-delta':
      case 'reasoning-delta': {
        const part = open.get(chunk.id);
        if (part !== undefined) part['text'] = `${String(part['text'])}${chunk.delta}`;
        break;
      }
      case 'text-end':
      case 'reasoning-end': {
        const part = open.get(chunk.id);
        if (part !== undefined) part['state'] = 'done';
        open.delete(chunk.id);
        break;
      }
      case 'tool-input-start':
        parts.push({ type: `tool-${chunk.toolName}`, toolCallId: chunk.toolCallId, state: 'input-streaming' });
        break;
      case 'tool-input-delta':
        break;
      case 'tool-input-available': {
        const part = tool(chunk.toolCallId);
        if (part === undefined) parts.push({ type: `tool-${chunk.toolName}`, toolCallId: chunk.toolCallId, state: 'input-available', input: chunk.input });
        else Object.assign(part, { type: `tool-${chunk.toolName}`, state: 'input-available', input: chunk.input });
        break;
      }
      case 'tool-approval-request': {
        const part = tool(chunk.toolCallId);
        if (part !== undefined) Object.assign(part, { state: 'approval-requested', approval: { id: chunk.approvalId, ...(chunk.reason === undefined ? {} : { requestReason: chunk.reason }) } });
        break;
      }
      case 'tool-approval-response': {
        const part = parts.find((p) => (p['approval'] as { id?: unknown } | undefined)?.id === chunk.approvalId);
        if (part !== undefined) Object.assign(part, { state: 'approval-responded', approval: { ...(part['approval'] as object), approved: chunk.approved, ...(chunk.reason === undefined ? {} : { reason: chunk.reason }) } });
        break;
      }
      case 'tool-output-available':
        Object.assign(tool(chunk.toolCallId) ?? {}, { state: 'output-available', output: chunk.output });
        break;
      case 'tool-output-error':
        Object.assign(tool(chunk.toolCallId) ?? {}, { state: 'output-error', errorText: chunk.errorText });
        break;
      case 'tool-output-denied':
        Object.assign(tool(chunk.toolCallId) ?? {}, { state: 'output-denied' });
        break;
      case 'finish-step':
      case 'error':
      case 'abort':
        break;
      default: {
        const existing = chunk.id === undefined ? undefined : parts.find((p) => p.type === chunk.type && p['id'] === chunk.id);
        if (existing !== undefined) existing['data'] = chunk.data;
        else parts.push({ type: chunk.type, ...(chunk.id === undefined ? {} : { id: chunk.id }), data: chunk.data });
      }
    }
  }
  return { id, role: 'assistant', ...(metadata === undefined ? {} : { metadata }), parts };
}
