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
   * Subscribes to SIGTERM and SIGHUP (the terminal closed, a supervisor stopping the CLI);
   * returns the unsubscribe function. Default: `process.on` for both.
   */
  readonly onTerminate?: (handler: (signal: 'SIGTERM' | 'SIGHUP') => void) => () => void;
  /** Ends the process at once (second Ctrl-C, SIGTERM, SIGHUP). Default: `process.exit`. */
  readonly exit?: (code: number) => void;
}

/** The real process: stdio, `process.env`, `process.cwd()`, SIGINT, SIGTERM, SIGHUP, `process.exit`. */
export function processIo(): CliIo {
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
      return () => {
        for (const [signal, listener] of listeners) process.off(signal, listener);
      };
    },
    exit: (code) => process.exit(code),
  };
}
