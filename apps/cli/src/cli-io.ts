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
  /** Ends the process at once (second Ctrl-C). Default: `process.exit`. */
  readonly exit?: (code: number) => void;
}

/** The real process: stdio, `process.env`, `process.cwd()`, SIGINT, `process.exit`. */
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
    exit: (code) => process.exit(code),
  };
}
