import type { Session } from '@a3s-lab/code';
import type { Style } from './ansi.js';
import { sanitizeTerminalText } from './ansi.js';
import type { CliIo } from './cli-io.js';
import { ConfirmationHandler } from './confirmation-handler.js';
import type { ConfirmationMode } from './confirmation-handler.js';
import { JsonRenderer } from './json-renderer.js';
import { LineReader } from './line-reader.js';
import type { RunRenderer } from './run-renderer.js';
import { runSession } from './run-session.js';
import type { RunOutcome } from './run-session.js';
import { TerminalRenderer } from './terminal-renderer.js';

/** Options of {@link hostRun}. */
export interface HostRunOptions {
  readonly session: Session;
  readonly prompt: string;
  readonly io: CliIo;
  readonly style: Style;
  /** `--json` output. */
  readonly json: boolean;
  /** `--compact` (with `json`): no per-token delta lines. */
  readonly compact?: boolean;
  /** `--yes`: approve every ask. */
  readonly yes: boolean;
  /** `provider/model`, for the cost line. */
  readonly model: string;
}

/** Who answers asks: `--yes`, the human at a terminal, or nobody (stdin is not a TTY). */
export function confirmationModeFor(yes: boolean, io: CliIo): ConfirmationMode {
  if (yes) return 'auto-approve';
  return io.stdin.isTTY === true ? 'interactive' : 'deny';
}

/** Live progress (streamed text, spinner, redrawn lines): stderr is a terminal that is not `TERM=dumb`. */
export function liveProgress(io: CliIo): boolean {
  return io.stderr.isTTY === true && io.env['TERM'] !== 'dumb';
}

/**
 * Runs one prompt with the renderer and confirmation handling the flags ask for. Without
 * `--json`, progress (tool lines, spinner, summary) goes to stderr and only the final answer to
 * stdout, as `codex exec` does. When the answer already streamed live on a terminal and stdout
 * is that terminal too, it is not printed a second time.
 */
export async function hostRun(options: HostRunOptions): Promise<RunOutcome> {
  const { io, style } = options;
  const live = liveProgress(io);
  const renderer: RunRenderer = options.json
    ? new JsonRenderer(io.stdout, io.stderr, { compact: options.compact === true })
    : new TerminalRenderer({ out: io.stderr, style, model: options.model, live, withholdAnswer: true });
  const mode = confirmationModeFor(options.yes, io);
  const reader = mode === 'interactive' ? new LineReader(io.stdin) : undefined;
  const confirmations = new ConfirmationHandler({
    session: options.session,
    mode,
    prompt: io.stderr,
    style,
    beforeQuestion: () => renderer.pause(),
    ...(reader === undefined ? {} : { reader }),
  });
  let outcome: RunOutcome;
  try {
    outcome = await runSession({ session: options.session, prompt: options.prompt, io, renderer, confirmations });
  } finally {
    reader?.close();
  }
  const answered = outcome.error === undefined && !outcome.cancelled && outcome.text.length > 0;
  if (answered && !options.json && !(live && io.stdout.isTTY === true)) {
    // A terminal may be at the end of the pipe: no control sequences from the model reach it.
    const text = sanitizeTerminalText(outcome.text);
    io.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
  }
  return outcome;
}
