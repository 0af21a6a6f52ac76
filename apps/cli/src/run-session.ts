import { CodeError } from '@a3s-lab/code';
import type { AgentEvent, AgentEventOfType, Session } from '@a3s-lab/code';
import type { CliIo } from './cli-io.js';
import { terminateExitCode } from './cli-io.js';
import type { ConfirmationHandler } from './confirmation-handler.js';
import { EXIT_CODES, exitCodeForError } from './exit-codes.js';
import type { ExitCode } from './exit-codes.js';
import type { RunRenderer } from './run-renderer.js';

/** A file change made during the run (from `tool_end` metadata of edit / patch / write). */
export interface FileChange {
  readonly tool: string;
  readonly path: string;
  readonly diff: string;
}

/** How a run ended. */
export interface RunOutcome {
  readonly exitCode: ExitCode;
  /** The final assistant text ('' when the run failed). */
  readonly text: string;
  /** The terminal `error` event's code and message, when the run failed. */
  readonly error?: { readonly code: string; readonly message: string };
  readonly cancelled: boolean;
  /** The last top-level tool call failed (exit code 1 when the run itself completed). */
  readonly lastToolFailed: boolean;
  readonly changes: readonly FileChange[];
}

/** Options of {@link runSession}. */
export interface RunSessionOptions {
  readonly session: Session;
  readonly prompt: string;
  readonly io: CliIo;
  readonly renderer: RunRenderer;
  readonly confirmations: ConfirmationHandler;
}

const isTopLevel = (event: AgentEvent): boolean => event.payload['parent_tool_id'] === undefined && event.metadata?.parent_tool_id === undefined;

/**
 * Streams one prompt through `session.stream`, rendering every event, answering asks, and turning
 * Ctrl-C into `session.cancelAsync()` (a second Ctrl-C exits at once with 130). Resolves with the
 * outcome and its exit code (see EXIT_CODES); rejects only when the stream cannot start.
 */
export async function runSession(options: RunSessionOptions): Promise<RunOutcome> {
  const { session, io, renderer, confirmations } = options;
  const changes: FileChange[] = [];
  let interrupts = 0;
  const unsubscribe = io.onInterrupt?.(() => {
    interrupts += 1;
    if (interrupts > 1) {
      renderer.close();
      io.stderr.write('\na3s-code: interrupted twice, exiting now\n');
      (io.exit ?? ((code: number) => process.exit(code)))(EXIT_CODES.cancelled);
      return;
    }
    renderer.pause();
    renderer.notice('cancelling… (press Ctrl-C again to exit immediately)');
    confirmations.cancel();
    void session.cancelAsync();
  });
  // SIGTERM / SIGHUP / a closed stdout pipe: cancel and exit now with 128 + the signal's number;
  // `process.exit` runs the local backend's exit hook, which kills every tool process group (and
  // its escapees). A closed pipe is the reader's choice (`| head -1`): nothing is said about it.
  const unsubscribeTerminate = io.onTerminate?.((signal) => {
    renderer.close();
    if (signal !== 'SIGPIPE') io.stderr.write(`\na3s-code: ${signal}, stopping the run and its tool processes\n`);
    confirmations.cancel();
    void session.cancelAsync();
    (io.exit ?? ((code: number) => process.exit(code)))(terminateExitCode(signal));
  });
  let lastToolFailed = false;
  let terminal: AgentEventOfType<'agent_end' | 'error'> | undefined;
  try {
    const stream = await session.stream(options.prompt);
    for await (const event of stream) {
      renderer.event(event);
      if (event.type === 'confirmation_required') confirmations.handle(event);
      if (event.type === 'tool_end' && isTopLevel(event)) {
        lastToolFailed = event.exitCode !== 0;
        const change = fileChangeOf(event);
        if (change !== null) changes.push(change);
      }
      if (event.type === 'agent_end' || event.type === 'error') terminal = event;
    }
    await stream.result.catch(() => undefined);
    await confirmations.idle();
  } finally {
    unsubscribe?.();
    unsubscribeTerminate?.();
    renderer.close();
  }
  if (terminal?.type === 'agent_end') {
    return { exitCode: lastToolFailed ? EXIT_CODES.toolFailure : EXIT_CODES.success, text: terminal.text, cancelled: false, lastToolFailed, changes };
  }
  const code = terminal?.code ?? 'INTERNAL_ERROR';
  const message = terminal?.text ?? 'the run ended without a terminal event';
  const details = terminal?.payload.details;
  const cancelled = CodeError.isCancellation({ code, details });
  return { exitCode: exitCodeForError(code, cancelled), text: '', error: { code, message }, cancelled, lastToolFailed, changes };
}

function fileChangeOf(event: AgentEventOfType<'tool_end'>): FileChange | null {
  if (event.exitCode !== 0) return null;
  const metadata = event.payload.metadata;
  const diff = metadata?.['diff'];
  if (typeof diff !== 'string' || diff.length === 0 || metadata?.['dry_run'] === true) return null;
  const path = typeof metadata?.['path'] === 'string' ? metadata['path'] : '';
  return { tool: event.toolName, path, diff };
}
