import { CodeError } from '@a3s-lab/code-core';
import type { LlmClient, LlmUsage } from '@a3s-lab/code-core';

/**
 * System prompt of the summarisation call made by auto-compaction. Exported so that hosts (and
 * scripted model servers in tests) can tell that request apart from a normal turn.
 */
export const COMPACTION_SYSTEM_PROMPT = [
  'You compact the earlier part of a coding-agent conversation so the agent can continue without it.',
  'Write a dense summary in plain text with these sections:',
  'Goals: what the user asked for, including constraints and preferences.',
  'Decisions: what was decided or learnt, and why.',
  'Files: every file read, created or changed, with what matters about each.',
  'State: what is done, what is in progress, and the open problems or errors still to address.',
  'Keep exact names, paths, identifiers, commands and error messages. Leave out pleasantries and anything already superseded.',
  'Answer with the summary only.',
].join('\n');

/** Options of {@link summarizeConversation}. */
export interface SummarizeOptions {
  /** Response cap, tokens. */
  readonly maxTokens: number;
  readonly signal: AbortSignal;
  readonly timeoutMs?: number;
  readonly onUsage?: (usage: LlmUsage) => void;
}

/**
 * One model call, without tools, that summarises `transcript`. Returns the summary text; throws
 * a CodeError `LLM_ERROR` when the call fails or the model returns no text.
 */
export async function summarizeConversation(llm: LlmClient, transcript: string, options: SummarizeOptions): Promise<string> {
  const stream = llm.stream(
    {
      system: COMPACTION_SYSTEM_PROMPT,
      messages: [
        {
          role: 'user',
          content: [{ type: 'text', text: `<conversation>\n${transcript}\n</conversation>\n\nSummarise the conversation above as instructed.` }],
        },
      ],
      tools: [],
      maxTokens: options.maxTokens,
    },
    { abortSignal: options.signal, ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }) },
  );
  let streamed = '';
  for await (const event of stream) {
    if (event.type === 'attempt_start' && event.attempt > 1) streamed = '';
    else if (event.type === 'text_delta') streamed += event.text;
    else if (event.type === 'message_end') {
      options.onUsage?.(event.usage);
      const text = event.content
        .filter((p) => p.type === 'text')
        .map((p) => p.text)
        .join('');
      const summary = (text.length > 0 ? text : streamed).trim();
      if (summary.length === 0) throw new CodeError('LLM_ERROR', 'the summarisation call returned no text', { details: { compaction: true, stopReason: event.stopReason } });
      return summary;
    }
  }
  throw new CodeError('LLM_ERROR', 'the summarisation stream ended without a final message', { details: { compaction: true } });
}
