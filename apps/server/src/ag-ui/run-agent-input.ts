import { RunAgentInputSchema } from '@ag-ui/core/schemas';
import type { Context } from 'hono';
import { z } from 'zod';
import type { ConfirmationAnswer } from '../answer-confirmations.js';
import { ServerError } from '../server-error.js';

/** What an AG-UI run request asks for: a new A3S run of the last user message, or answers to interrupts. */
export type AgUiIntent = { readonly kind: 'prompt'; readonly prompt: string } | { readonly kind: 'resume'; readonly answers: readonly ConfirmationAnswer[] };

/** A `RunAgentInput` as the protocol's schema parses it. */
export type ParsedRunAgentInput = ReturnType<typeof RunAgentInputSchema.parse>;

/** Parses a `RunAgentInput` body with the protocol's own schema (BAD_REQUEST when it does not match). */
export function parseRunAgentInput(value: unknown): ParsedRunAgentInput {
  const parsed = RunAgentInputSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ServerError('BAD_REQUEST', `invalid RunAgentInput: ${issue?.path.join('.') || '(root)'}: ${issue?.message ?? 'invalid'}`);
  }
  return parsed.data;
}

/** Reads the request body as a `RunAgentInput` (BAD_REQUEST when it is not JSON or does not match the schema). */
export async function readRunAgentInput(c: Context): Promise<ParsedRunAgentInput> {
  let body: unknown;
  try {
    body = await c.req.json();
  } catch {
    throw new ServerError('BAD_REQUEST', 'the body must be a JSON RunAgentInput');
  }
  return parseRunAgentInput(body);
}

/** Body of `POST /agui/cancel`: the thread (= session id) whose running run to cancel. */
export const agUiCancelBody = z.strictObject({ threadId: z.string().min(1).max(256) });

function emptyObject(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'object' && Object.keys(value).length === 0);
}

/**
 * Reads the intent of a run request. `resume` entries answer interrupts (a resolved one with
 * `payload: { approved, reason? }`, a cancelled one is a denial); otherwise the last message must
 * be the user's, and is the prompt. Earlier messages and `state` are the client's copy of the
 * thread and are never taken over: the session has its own. Frontend `tools`, `context` and
 * `forwardedProps` are refused (BAD_REQUEST): this host would not act on them.
 */
export function agUiIntentOf(input: ParsedRunAgentInput): AgUiIntent {
  if ((input.tools ?? []).length > 0) throw new ServerError('BAD_REQUEST', 'frontend tools are not supported: the session has its own tools', { field: 'tools' });
  if ((input.context ?? []).length > 0) throw new ServerError('BAD_REQUEST', 'context entries are not supported: put them in the message', { field: 'context' });
  if (!emptyObject(input.forwardedProps)) throw new ServerError('BAD_REQUEST', 'forwardedProps are not supported', { field: 'forwardedProps' });
  if (input.resume !== undefined && input.resume.length > 0) {
    const answers = input.resume.map((entry): ConfirmationAnswer => {
      if (entry.status === 'cancelled') return { approvalId: entry.interruptId, approved: false, reason: 'cancelled' };
      const payload: unknown = entry.payload;
      if (typeof payload !== 'object' || payload === null || typeof (payload as { approved?: unknown }).approved !== 'boolean') throw new ServerError('BAD_REQUEST', `resume '${entry.interruptId}': payload must be { approved: boolean, reason?: string }`, { field: 'resume' });
      const { approved, reason } = payload as { approved: boolean; reason?: unknown };
      if (reason !== undefined && (typeof reason !== 'string' || reason.length > 2000)) throw new ServerError('BAD_REQUEST', `resume '${entry.interruptId}': reason must be a string of at most 2000 characters`, { field: 'resume' });
      return { approvalId: entry.interruptId, approved, ...(reason === undefined ? {} : { reason }) };
    });
    return { kind: 'resume', answers };
  }
  const last = input.messages.at(-1);
  if (last?.role !== 'user') throw new ServerError('BAD_REQUEST', 'the last message must be a user message (or send resume entries for the open interrupts)', { field: 'messages' });
  const content = last.content;
  let prompt: string;
  if (typeof content === 'string') prompt = content;
  else {
    const texts: string[] = [];
    for (const part of content) {
      if (part.type !== 'text') throw new ServerError('BAD_REQUEST', `user message content must be text; got '${part.type}'`, { field: 'messages' });
      texts.push(part.text);
    }
    prompt = texts.join('\n');
  }
  if (prompt.trim().length === 0) throw new ServerError('BAD_REQUEST', 'the user message has no text', { field: 'messages' });
  if (prompt.length > 200_000) throw new ServerError('BAD_REQUEST', 'the prompt is longer than 200000 characters', { field: 'messages' });
  return { kind: 'prompt', prompt };
}
