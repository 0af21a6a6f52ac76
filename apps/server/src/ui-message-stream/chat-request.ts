import type { Context } from 'hono';
import { z } from 'zod';
import type { ConfirmationAnswer } from '../answer-confirmations.js';
import { readJson } from '../request-input.js';
import { ServerError } from '../server-error.js';

const uiPart = z.looseObject({ type: z.string().min(1) });
const uiMessage = z.looseObject({ id: z.string().max(256), role: z.enum(['system', 'user', 'assistant']), parts: z.array(uiPart) });

/**
 * The body `useChat` (`DefaultChatTransport`) posts: the chat id (= the session id), the
 * messages, the trigger and, for an approval answer, the id of the message it answers. Unknown
 * fields are refused like everywhere in the API.
 */
export const chatRequestBody = z.strictObject({
  id: z.string().min(1).max(256),
  messages: z.array(uiMessage).min(1).max(100_000),
  trigger: z.enum(['submit-message', 'regenerate-message']),
  messageId: z.string().max(256).optional(),
});

/** A parsed chat request body. */
export type ChatRequestBody = z.infer<typeof chatRequestBody>;

/** Reads the body of `POST /sessions/:id/chat` for session `sessionId` (BAD_REQUEST when invalid or when its chat id is another session's). */
export async function readChatRequest(c: Context, sessionId: string): Promise<ChatRequestBody> {
  const body = await readJson(c, chatRequestBody);
  if (body.id !== sessionId) throw new ServerError('BAD_REQUEST', `the chat id must be the session id '${sessionId}'`, { field: 'id' });
  return body;
}

/** One answer of the client to a `tool-approval-request` (a tool part in state `approval-responded`). */
export type ApprovalAnswer = ConfirmationAnswer;

/** What a chat request asks for: a new run of a prompt, or answers to the pending approvals of run `runId`. */
export type ChatIntent = { readonly kind: 'prompt'; readonly prompt: string } | { readonly kind: 'approvals'; readonly runId: string; readonly answers: readonly ApprovalAnswer[] };

const textPart = z.looseObject({ type: z.literal('text'), text: z.string() });
const approvalPart = z.looseObject({
  type: z.string().regex(/^(tool-|dynamic-tool$)/),
  state: z.literal('approval-responded'),
  approval: z.looseObject({ id: z.string().min(1).max(512), approved: z.boolean(), reason: z.string().max(2000).optional() }),
});

/**
 * Reads the intent from the LAST message only: earlier messages are the session's own history,
 * which the server has and never takes from a client. A user message's text parts are the
 * prompt; an assistant message (id = its run id) carries the approval answers. Anything else is
 * refused (BAD_REQUEST), including `regenerate-message` and non-text user parts, which this host
 * does not act on.
 */
export function chatIntentOf(body: ChatRequestBody): ChatIntent {
  if (body.trigger !== 'submit-message') throw new ServerError('BAD_REQUEST', `trigger '${body.trigger}' is not supported: a run cannot be regenerated`, { field: 'trigger' });
  const last = body.messages.at(-1);
  if (last === undefined) throw new ServerError('BAD_REQUEST', 'messages must not be empty', { field: 'messages' });
  if (last.role === 'user') {
    const texts: string[] = [];
    for (const part of last.parts) {
      const parsed = textPart.safeParse(part);
      if (!parsed.success) throw new ServerError('BAD_REQUEST', `user message parts must be text; got '${part.type}'`, { field: 'messages' });
      texts.push(parsed.data.text);
    }
    const prompt = texts.join('\n');
    if (prompt.trim().length === 0) throw new ServerError('BAD_REQUEST', 'the user message has no text', { field: 'messages' });
    if (prompt.length > 200_000) throw new ServerError('BAD_REQUEST', 'the prompt is longer than 200000 characters', { field: 'messages' });
    return { kind: 'prompt', prompt };
  }
  if (last.role === 'assistant') {
    const answers: ApprovalAnswer[] = [];
    for (const part of last.parts) {
      const parsed = approvalPart.safeParse(part);
      if (!parsed.success) continue;
      const { id, approved, reason } = parsed.data.approval;
      answers.push({ approvalId: id, approved, ...(reason === undefined ? {} : { reason }) });
    }
    if (answers.length === 0) throw new ServerError('BAD_REQUEST', 'the last message is an assistant message without approval answers', { field: 'messages' });
    return { kind: 'approvals', runId: last.id, answers };
  }
  throw new ServerError('BAD_REQUEST', `the last message must be a user message or an assistant message with approval answers; got role '${last.role}'`, { field: 'messages' });
}
