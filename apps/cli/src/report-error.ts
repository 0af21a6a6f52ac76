import { CodeError } from '@a3s-lab/code';
import type { Style } from './ansi.js';
import { sanitizeTerminalText } from './ansi.js';
import type { CliIo } from './cli-io.js';
import { jsonLine } from './json-renderer.js';
import { exitCodeForError } from './exit-codes.js';
import type { ExitCode } from './exit-codes.js';

/** A failure as the CLI reports it: stable code, message, details. */
export interface ReportedError {
  readonly code: string;
  readonly message: string;
  readonly details: Readonly<Record<string, unknown>>;
}

/** Any thrown value as a {@link ReportedError} (non-CodeErrors are INTERNAL_ERROR). */
export function toReportedError(error: unknown): ReportedError {
  if (CodeError.isInstance(error)) return { code: error.code, message: error.message, details: error.details };
  return { code: 'INTERNAL_ERROR', message: error instanceof Error ? error.message : String(error), details: {} };
}

/**
 * Reports a failure that happened outside a run's event stream (flags, config, session set-up):
 * a line on stderr, and with `--json` also an `error` envelope on stdout, so a JSONL consumer
 * sees every failure with its stable `code`. Returns the exit code.
 */
export function reportError(io: CliIo, json: boolean, style: Style, error: unknown, hint?: string): ExitCode {
  const reported = toReportedError(error);
  // A message can quote a config file or a server's answer: no control characters reach the terminal.
  // A command-line mistake reads as usage (the JSON envelope keeps the stable code CONFIG_ERROR).
  const label = reported.details['usage'] === true ? `${style.red('a3s-code: usage:')}` : `${style.red('a3s-code: error')} [${reported.code}]`;
  io.stderr.write(`${label} ${sanitizeTerminalText(reported.message)}\n${hint === undefined ? '' : `${hint}\n`}`);
  if (json) {
    const payload = { code: reported.code, message: reported.message, details: reported.details };
    io.stdout.write(`${jsonLine({ version: 1, type: 'error', payload, metadata: { timestamp_ms: Date.now() } })}\n`);
  }
  return exitCodeForError(reported.code, CodeError.isCancellation(reported));
}
