// `a3s-code acp`: an Agent Client Protocol agent over stdio (newline-delimited JSON-RPC).
// stdout carries protocol messages only; everything else (logs, warnings) goes to stderr.
import { Readable, Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import { CodeError } from '@a3s-lab/code';
import { ndJsonStream } from '@agentclientprotocol/sdk';
import type { CliIo, TerminateSignal } from '../cli-io.js';
import { terminateExitCode } from '../cli-io.js';
import { EXIT_CODES } from '../exit-codes.js';
import { parsePermissionMode } from '../permission-modes.js';
import { AcpAgents } from './acp-agents.js';
import type { AcpOptions } from './acp-agents.js';
import { createAcpAgent } from './acp-agent.js';

/** The `acp --help` text. */
export const ACP_USAGE = `Usage:
  a3s-code acp [--config FILE] [--model provider/model] [--permission-mode MODE]

Runs an Agent Client Protocol (ACP) agent on stdin/stdout for an editor (Zed, JetBrains,
Neovim, Emacs, VS Code ACP clients). stdout carries only protocol messages; logs go to stderr.
Each session's cwd is its workspace; its config is discovered there as for \`run\` (a
workspace's own .a3s/config.acl only once trusted with \`a3s-code trust\`). Sessions are saved
to the config's durable store, else ~/.a3s/sessions, and can be loaded again (session/load).

Options:
  --config FILE            agent.acl to use for every session (default: discovered per session)
  --model provider/model   model to use (default: the config's default_model)
  --permission-mode MODE   the mode sessions start in: default | accept-edits | plan | yolo
                           (session/set_mode changes it)
`;

const usageError = (message: string): CodeError => new CodeError('CONFIG_ERROR', `${message} (see a3s-code acp --help)`, { details: { usage: true } });

/** Parses the arguments after `acp`; `'help'` for --help. Throws CONFIG_ERROR on bad input. */
export function parseAcpArgs(args: readonly string[]): AcpOptions | 'help' {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...args],
      options: { config: { type: 'string' }, model: { type: 'string' }, 'permission-mode': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      allowPositionals: false,
      strict: true,
    });
  } catch (error) {
    throw usageError(error instanceof Error ? error.message : String(error));
  }
  const { values } = parsed;
  if (values.help === true) return 'help';
  if (values.model !== undefined && !/^[^/\s]+\/\S+$/.test(values.model)) throw usageError(`--model must be 'provider/model'; got '${values.model}'`);
  return {
    ...(values.config === undefined ? {} : { config: values.config }),
    ...(values.model === undefined ? {} : { model: values.model }),
    ...(values['permission-mode'] === undefined ? {} : { permissionMode: parsePermissionMode(values['permission-mode']) }),
  };
}

/**
 * Keeps this process's stdout for the protocol: `process.stdout.write` and `console.log` of any
 * code in the process go to stderr from now on; the returned stream writes the real stdout.
 */
function claimStdout(io: CliIo): NodeJS.WritableStream {
  if (io.stdout !== process.stdout) return io.stdout;
  const write = process.stdout.write.bind(process.stdout);
  const protocol = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      write(chunk, (error) => callback(error ?? null));
    },
  });
  process.stdout.write = process.stderr.write.bind(process.stderr) as typeof process.stdout.write;
  console.log = console.error;
  console.info = console.error;
  console.debug = console.error;
  return protocol;
}

/** `a3s-code acp`: serves ACP on stdio until the client closes stdin (or SIGTERM / SIGHUP). */
export async function acpCommand(options: AcpOptions, io: CliIo, version: string): Promise<number> {
  const log = (line: string): void => {
    io.stderr.write(`a3s-code acp: ${line}\n`);
  };
  const out = claimStdout(io);
  const agents = new AcpAgents(io, options);
  const { app, closeAll } = createAcpAgent({ io, options, agents, version, log });
  const output = Writable.toWeb(out as Writable) as WritableStream<Uint8Array>;
  const input = Readable.toWeb(io.stdin as Readable) as ReadableStream<Uint8Array>;
  const connection = app.connect(ndJsonStream(output, input));
  let stoppedBy: TerminateSignal | undefined;
  const unsubscribe = io.onTerminate?.((signal) => {
    stoppedBy = signal;
    log(`${signal}: closing the sessions and their tool processes`);
    connection.close();
  });
  log(`ready (ACP over stdio, a3s-code ${version})`);
  try {
    await connection.closed;
  } finally {
    unsubscribe?.();
    // The client is gone: open asks were rejected with the connection; running turns are
    // cancelled and their tool processes killed before the agents close.
    await closeAll();
    await agents.close();
  }
  // Stopped by a signal: 128 + its number, as a shell reports it.
  return stoppedBy === undefined ? EXIT_CODES.success : terminateExitCode(stoppedBy);
}
