// Waits for the next event of a run that this tab is not streaming (it stopped at a pending
// approval): the run's v1 SSE stream after the last sequence the UI message stream covered.
// Another tab's (or host's) answer, a timeout or a cancel is recorded in the run for every
// follower, so the first event after that cursor means "resume the chat stream".
import { apiFetch, sessionPath } from './api.js';

/** Resolves true at the first recorded event (or the stream's `end`) after `after`; false when aborted. */
export async function waitForRunEvent(token: string, sessionId: string, runId: string, after: number, signal: AbortSignal): Promise<boolean> {
  while (!signal.aborted) {
    try {
      const response = await apiFetch(token, sessionPath(sessionId, `/runs/${encodeURIComponent(runId)}/stream?after=${after}`), { signal });
      if (response.body === null) return true;
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      try {
        for (;;) {
          const { value, done } = await reader.read();
          // The server ended the stream (maxStreamMs): follow again from the same cursor.
          if (done) break;
          buffer += value;
          const blocks = buffer.split(/\r?\n\r?\n/);
          buffer = blocks.pop() ?? '';
          // A block with any field but a comment is an event (keep-alives are `: ...` comments).
          if (blocks.some((block) => block.split(/\r?\n/).some((line) => line !== '' && !line.startsWith(':')))) return true;
        }
      } finally {
        await reader.cancel().catch(() => undefined);
      }
    } catch (error) {
      if (signal.aborted) return false;
      // The run or session is gone, or the host refused: resuming shows the truth (or the error).
      if (!(error instanceof DOMException)) return true;
    }
  }
  return false;
}
