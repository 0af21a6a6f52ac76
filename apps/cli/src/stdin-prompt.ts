import { CodeError } from '@a3s-lab/code';
import type { Style } from './ansi.js';
import type { CliInput, CliIo } from './cli-io.js';

/**
 * How long `run "<prompt>"` waits for the first byte of a piped stdin before it runs without it
 * (a parent that left stdin open but never writes must not hang the CLI). Once data arrives,
 * stdin is read to its end however long that takes.
 */
export const STDIN_FIRST_BYTE_TIMEOUT_MS = 3_000;

/** What {@link readStdin} read. */
export interface StdinText {
  readonly text: string;
  /** Nothing arrived within the first-byte timeout; stdin was left unread. */
  readonly timedOut: boolean;
}

/**
 * Reads `stdin` to its end as UTF-8. With `firstByteTimeoutMs`, gives up (`timedOut`) when no
 * data has arrived by then, and stops listening so the process can exit.
 */
export function readStdin(stdin: CliInput, firstByteTimeoutMs?: number): Promise<StdinText> {
  // Already read to its end elsewhere: nothing more will come (no 'end' event either).
  if ('readableEnded' in stdin && stdin.readableEnded === true) return Promise.resolve({ text: '', timedOut: false });
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let timer: ReturnType<typeof setTimeout> | undefined;
    const cleanup = (): void => {
      if (timer !== undefined) clearTimeout(timer);
      stdin.off('data', onData);
      stdin.off('end', onEnd);
      stdin.off('error', onError);
    };
    const onData = (chunk: Buffer | string): void => {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      chunks.push(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk);
    };
    const onEnd = (): void => {
      cleanup();
      resolve({ text: Buffer.concat(chunks).toString('utf8'), timedOut: false });
    };
    const onError = (error: unknown): void => {
      cleanup();
      reject(new CodeError('CONFIG_ERROR', `could not read stdin: ${error instanceof Error ? error.message : String(error)}`, { cause: error }));
    };
    stdin.on('data', onData);
    stdin.on('end', onEnd);
    stdin.on('error', onError);
    if (firstByteTimeoutMs !== undefined) {
      timer = setTimeout(() => {
        cleanup();
        stdin.pause();
        // process.stdin on a pipe is a socket: unref it so it does not keep the process alive.
        if ('unref' in stdin && typeof stdin.unref === 'function') stdin.unref();
        resolve({ text: '', timedOut: true });
      }, firstByteTimeoutMs);
      timer.unref?.();
    }
    stdin.resume();
  });
}

/**
 * The prompt a run sends, with stdin taken into account:
 * - `run -`: the prompt is all of stdin (an empty stdin is a usage error);
 * - `run "<prompt>"` with a piped (non-TTY) stdin: what stdin holds is appended as context in a
 *   `<stdin>` block (`git diff | a3s-code run "review this"`); an empty stdin (`< /dev/null`)
 *   adds nothing; when nothing arrives within {@link STDIN_FIRST_BYTE_TIMEOUT_MS} the run starts
 *   without it and says so on stderr;
 * - stdin is a terminal: the prompt as given (stdin stays for the confirmation questions).
 */
export async function promptWithStdin(prompt: string, io: CliIo, style: Style, firstByteTimeoutMs = STDIN_FIRST_BYTE_TIMEOUT_MS): Promise<string> {
  if (prompt === '-') {
    const { text } = await readStdin(io.stdin);
    const fromStdin = text.trim();
    if (fromStdin.length === 0) throw new CodeError('CONFIG_ERROR', 'run - reads the prompt from stdin, and stdin was empty (see a3s-code --help)', { details: { usage: true, argument: 'prompt' } });
    return fromStdin;
  }
  if (io.stdin.isTTY === true) return prompt;
  const { text, timedOut } = await readStdin(io.stdin, firstByteTimeoutMs);
  if (timedOut) {
    io.stderr.write(style.yellow(`a3s-code: no data on stdin after ${firstByteTimeoutMs / 1000}s; running without it (use < /dev/null to skip stdin)\n`));
    return prompt;
  }
  const context = text.replace(/\s+$/, '');
  return context.trim().length === 0 ? prompt : `${prompt}\n\n<stdin>\n${context}\n</stdin>`;
}
