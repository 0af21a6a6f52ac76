/** A readable side of the terminal (stdin). */
export type CliInput = NodeJS.ReadableStream & { readonly isTTY?: boolean };
/** A writable side of the terminal (stdout, stderr). */
export type CliOutput = NodeJS.WritableStream & { readonly isTTY?: boolean; readonly columns?: number };

/**
 * Everything the CLI touches outside itself, so tests can run `main` in-process with their own
 * streams, environment and signals.
 */
export interface CliIo {
  readonly stdin: CliInput;
  readonly stdout: CliOutput;
  readonly stderr: CliOutput;
  /** Environment (API keys, `HOME`, `NO_COLOR`). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Base of relative paths (`--workspace`, `--config`). */
  readonly cwd: string;
  /** Subscribes to Ctrl-C (SIGINT); returns the unsubscribe function. Default: `process.on('SIGINT')`. */
  readonly onInterrupt?: (handler: () => void) => () => void;
  /**
   * Subscribes to SIGTERM and SIGHUP (the terminal closed, a supervisor stopping the CLI) and to
   * `SIGPIPE`: stdout's reader went away (`a3s-code run ... | head -1`, an EPIPE on stdout);
   * returns the unsubscribe function. Default: `process.on` for the signals, stdout's `error`
   * event for the pipe.
   */
  readonly onTerminate?: (handler: (signal: TerminateSignal) => void) => () => void;
  /** Ends the process at once (second Ctrl-C, SIGTERM, SIGHUP). Default: `process.exit`. */
  readonly exit?: (code: number) => void;
}

/** Why the CLI is told to stop at once (see {@link CliIo.onTerminate}). */
export type TerminateSignal = 'SIGTERM' | 'SIGHUP' | 'SIGPIPE';

/** Exit status for a stop by `signal`: 128 + the signal's number, as a shell reports it. */
export function terminateExitCode(signal: TerminateSignal): number {
  switch (signal) {
    case 'SIGHUP':
      return 129;
    case 'SIGPIPE':
      return 141;
    case 'SIGTERM':
      return 143;
  }
}

/** Handlers told when stdout's reader went away; empty: exit quietly at once. */
const pipeHandlers = new Set<(signal: TerminateSignal) => void>();
let pipeWatched = false;

/**
 * Watches `process.stdout` for EPIPE once per process: a closed pipe is not a crash (no stack
 * trace, no exit 1) but the end of the output's reader, as for any Unix tool: a run stops (its
 * tool processes end with it) and the process exits with 141.
 */
function watchStdoutPipe(): void {
  if (pipeWatched) return;
  pipeWatched = true;
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    if (pipeHandlers.size === 0) process.exit(terminateExitCode('SIGPIPE'));
    for (const handler of [...pipeHandlers]) handler('SIGPIPE');
  });
}

/** The real process: stdio, `process.env`, `process.cwd()`, SIGINT, SIGTERM, SIGHUP, `process.exit`. */
export function processIo(): CliIo {
  watchStdoutPipe();
  return {
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    cwd: process.cwd(),
    onInterrupt: (handler) => {
      process.on('SIGINT', handler);
      return () => {
        process.off('SIGINT', handler);
      };
    },
    onTerminate: (handler) => {
      const listeners = (['SIGTERM', 'SIGHUP'] as const).map((signal) => {
        const listener = (): void => handler(signal);
        process.on(signal, listener);
        return [signal, listener] as const;
      });
      pipeHandlers.add(handler);
      return () => {
        for (const [signal, listener] of listeners) process.off(signal, listener);
        pipeHandlers.delete(handler);
      };
    },
    exit: (code) => process.exit(code),
  };
}
