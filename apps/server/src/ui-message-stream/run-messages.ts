import type { Session } from '@a3s-lab/code';
import { foldUIMessage } from './fold-ui-message.js';
import type { UIMessage } from './fold-ui-message.js';
import type { UIMessageChunk } from './ui-message-chunk.js';
import { UIMessageEncoder } from './ui-message-encoder.js';

/**
 * The session's conversation as UI messages, from its run records and recorded events: per run
 * a user message (`<runId>:prompt`, the prompt) and the assistant message the UI message stream
 * builds (id = run id; a running run as far as it got).
 */
export async function runMessages(session: Session): Promise<UIMessage[]> {
  const messages: UIMessage[] = [];
  for (const run of await session.runs()) {
    const encoder = new UIMessageEncoder({ runId: run.id, sessionId: session.id });
    const chunks: UIMessageChunk[] = [encoder.start()];
    for (const event of await session.runEvents(run.id)) chunks.push(...encoder.encode(event, Number(event.metadata?.['sequence'])));
    if (run.status !== 'running') chunks.push(...encoder.finish(run));
    messages.push({ id: `${run.id}:prompt`, role: 'user', parts: [{ type: 'text', text: run.prompt }] }, foldUIMessage(chunks));
  }
  return messages;
}
