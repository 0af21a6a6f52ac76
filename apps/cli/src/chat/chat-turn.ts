// One turn of the chat: the prompt streamed as `run` prints it (answer, tool lines, diffs,
// spinner, summary on stderr), asks answered inline, Ctrl-C cancelling the turn.
import type { Session } from '@a3s-lab/code';
import type { Style } from '../ansi.js';
import type { CliIo } from '../cli-io.js';
import { ConfirmationHandler } from '../confirmation-handler.js';
import { liveProgress } from '../host-run.js';
import { LineReader } from '../line-reader.js';
import { runSession } from '../run-session.js';
import type { RunOutcome } from '../run-session.js';
import { TerminalRenderer } from '../terminal-renderer.js';

/** Options of {@link chatTurn}. */
export interface ChatTurnOptions {
  readonly session: Session;
  readonly prompt: string;
  readonly io: CliIo;
  readonly style: Style;
  readonly model: string;
  /** `--yes`: approve every ask. */
  readonly yes: boolean;
  /** Tools answered "always" in this chat (kept across turns). */
  readonly allowed: Set<string>;
}

/** Runs one prompt on the chat's session; resolves with its outcome (never exits on a failure). */
export async function chatTurn(options: ChatTurnOptions): Promise<RunOutcome> {
  const { session, io, style } = options;
  const renderer = new TerminalRenderer({ out: io.stderr, style, model: options.model, live: liveProgress(io), withholdAnswer: false });
  const reader = options.yes ? undefined : new LineReader(io.stdin);
  const confirmations = new ConfirmationHandler({
    session,
    mode: options.yes ? 'auto-approve' : 'interactive',
    prompt: io.stderr,
    style,
    beforeQuestion: () => renderer.pause(),
    ...(reader === undefined ? {} : { reader }),
  });
  for (const tool of options.allowed) confirmations.allowed.add(tool);
  try {
    return await runSession({ session, prompt: options.prompt, io, renderer, confirmations });
  } finally {
    reader?.close();
    for (const tool of confirmations.allowed) options.allowed.add(tool);
  }
}
