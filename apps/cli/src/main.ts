import { readFileSync } from 'node:fs';
import { ACP_USAGE, acpCommand, parseAcpArgs } from './acp/acp-command.js';
import { colorWanted, createStyle } from './ansi.js';
import type { CliIo } from './cli-io.js';
import { processIo } from './cli-io.js';
import { demoCommand } from './demo-command.js';
import { EXIT_CODES } from './exit-codes.js';
import { TRUST_USAGE, USAGE, parseCliArgs } from './parse-args.js';
import type { CliCommand } from './parse-args.js';
import { startOtlpTelemetry } from './otlp-telemetry.js';
import { reportError } from './report-error.js';
import { runCommand } from './run-command.js';
import { SERVE_USAGE, parseServeArgs, serveCommand } from './serve-command.js';
import { trustCommand } from './trust-command.js';

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
  const telemetry = command.kind === 'run' || command.kind === 'demo' || command.kind === 'serve' ? await startOtlpTelemetry(io.env) : null;
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
      return runCommand(command.options, io, style);
    case 'demo':
      return demoCommand(command.options, io, style);
    case 'serve': {
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
      return trustCommand(command.options, io, style);
    case 'acp': {
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
