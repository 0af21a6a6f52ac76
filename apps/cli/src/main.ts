import { readFileSync } from 'node:fs';
import { CodeError } from '@a3s-lab/code';
import { parseChatArgs } from './chat/chat-args.js';
import { colorWanted, createStyle } from './ansi.js';
import type { CliIo } from './cli-io.js';
import { processIo } from './cli-io.js';
import { EXIT_CODES } from './exit-codes.js';
import { TRUST_USAGE, USAGE, parseCliArgs } from './parse-args.js';
import type { CliCommand } from './parse-args.js';
import { startOtlpTelemetry } from './otlp-telemetry.js';
import { reportError } from './report-error.js';

// Each command's module is imported when that command runs: `run` and `acp` (which editors start
// for every session) do not load the server, its UI protocols or the demo's scripted model.

/** The CLI's version, from its package.json (beside `src/` and `dist/`). */
export function cliVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version?: string };
  return pkg.version ?? '0.0.0';
}

/**
 * The whole CLI as a function: `argv` without `node` and the script, `io` the process's streams
 * (or a test's). Resolves with the exit code; never calls `process.exit` itself except on a
 * second Ctrl-C.
 */
export async function main(argv: readonly string[], io: CliIo = processIo()): Promise<number> {
  // Colour is for the human's stream: progress, questions and errors all go to stderr.
  const style = createStyle(colorWanted(io.stderr.isTTY === true, io.env));
  let command: CliCommand;
  try {
    command = parseCliArgs(argv);
  } catch (error) {
    return reportError(io, argv.includes('--json'), style, error);
  }
  // OTLP/HTTP export when OTEL_EXPORTER_OTLP_ENDPOINT is set: the sessions use the global provider.
  // Commands that run sessions (run, demo, serve, acp); never on stdout, so acp's stdio stays clean.
  const telemetry = command.kind === 'help' || command.kind === 'version' || command.kind === 'trust' ? null : await startOtlpTelemetry(io.env);
  try {
    return await dispatch(command, io, style);
  } finally {
    await telemetry?.shutdown();
  }
}

async function dispatch(command: CliCommand, io: CliIo, style: ReturnType<typeof createStyle>): Promise<number> {
  switch (command.kind) {
    case 'help':
      io.stdout.write(command.topic === 'trust' ? TRUST_USAGE : USAGE);
      return EXIT_CODES.success;
    case 'version':
      io.stdout.write(`${cliVersion()}\n`);
      return EXIT_CODES.success;
    case 'run':
      return (await import('./run-command.js')).runCommand(command.options, io, style);
    case 'demo':
      return (await import('./demo-command.js')).demoCommand(command.options, io, style);
    case 'serve': {
      const { SERVE_USAGE, parseServeArgs, serveCommand } = await import('./serve-command.js');
      let options;
      try {
        options = parseServeArgs(command.args);
      } catch (error) {
        return reportError(io, false, style, error);
      }
      if (options === 'help') {
        io.stdout.write(SERVE_USAGE);
        return EXIT_CODES.success;
      }
      // serve reports where it listens on stdout: colour only when that is a terminal.
      return serveCommand(options, io, createStyle(colorWanted(io.stdout.isTTY === true, io.env)));
    }
    case 'trust':
      return (await import('./trust-command.js')).trustCommand(command.options, io, style);
    case 'chat': {
      let options;
      try {
        options = parseChatArgs(command.args);
        if (io.stdin.isTTY !== true && (options.continueLast || options.resume !== undefined)) {
          throw new CodeError('CONFIG_ERROR', '--continue and --resume open a chat, which needs a terminal on stdin (see a3s-code --help)', { details: { usage: true } });
        }
      } catch (error) {
        return reportError(io, false, style, error);
      }
      // No terminal to chat on: `run` semantics, the prompt read from stdin.
      if (io.stdin.isTTY !== true) {
        const { continueLast: _continue, resume: _resume, ...flags } = options;
        return (await import('./run-command.js')).runCommand({ ...flags, prompt: '-', json: false }, io, style);
      }
      return (await import('./chat/chat-command.js')).chatCommand(options, io, style);
    }
    case 'acp': {
      const { ACP_USAGE, acpCommand, parseAcpArgs } = await import('./acp/acp-command.js');
      let options;
      try {
        options = parseAcpArgs(command.args);
      } catch (error) {
        return reportError(io, false, style, error);
      }
      if (options === 'help') {
        io.stdout.write(ACP_USAGE);
        return EXIT_CODES.success;
      }
      return acpCommand(options, io, cliVersion());
    }
  }
}
