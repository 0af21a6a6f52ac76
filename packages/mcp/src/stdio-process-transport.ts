import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { buildChildEnvironment, processGroupRegistry, signalProcessGroup } from '@a3s-lab/code-core/util';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { killMarkedProcesses, MCP_SERVER_MARKER_ENV, newServerMarker } from './process-marker.js';

/** Longest JSON-RPC line accepted from a server (bytes); a longer one ends the connection. */
export const MAX_STDIO_MESSAGE_BYTES = 32 * 1024 * 1024;
/** How much of a server's stderr is kept (its tail), for error messages. */
export const STDERR_TAIL_BYTES = 4096;
/** How long a closing server gets after SIGTERM before its group is killed. */
export const STDIO_KILL_GRACE_MS = 2000;

/**
 * The host's process-group registry (core's, shared with the local backend's tool processes): a
 * server group still registered when the host ends is killed, on `exit` and on SIGTERM, SIGINT
 * and SIGHUP when nothing else handles that signal.
 */
const hostProcessGroups = processGroupRegistry(process);

/**
 * Records a started server's process group, ended with SIGKILL if the host ends first, together
 * with every process carrying the server's marker (those that left the group).
 */
function registerServerGroup(pgid: number, marker: string): void {
  hostProcessGroups.register(pgid, () => {
    signalProcessGroup(process, pgid, 'SIGKILL');
    killMarkedProcesses(marker);
  });
}

/** Options of {@link StdioProcessTransport}. */
export interface StdioProcessTransportOptions {
  /** Program to run. */
  readonly command: string;
  /** Its arguments. */
  readonly args: readonly string[];
  /** Its working directory. Default: the host's. */
  readonly cwd?: string;
  /** Passed on purpose, on top of the secret-stripped host environment. */
  readonly env: Readonly<Record<string, string>>;
  /** Longest line accepted from the server. Default {@link MAX_STDIO_MESSAGE_BYTES}. */
  readonly maxMessageBytes?: number;
}

/**
 * MCP client transport over a child process's stdin/stdout, built for untrusted servers: the
 * child runs in its own process group (closing kills the group: SIGTERM, SIGKILL after a grace)
 * with the host environment stripped of secret-bearing variables plus the given `env` and a
 * per-server marker (`A3S_MCP_SERVER_MARKER`: a descendant that left the group with `setsid` is
 * found by it and killed when the server ends); stderr is
 * drained and only its tail kept; a line that is not JSON-RPC is reported and skipped; a line
 * over {@link MAX_STDIO_MESSAGE_BYTES} ends the connection. None of these can crash or hang the
 * host.
 */
export class StdioProcessTransport implements Transport {
  /** Called once when the connection ends (the process exited, or close()). */
  onclose?: () => void;
  /** Non-fatal problems: stray output lines, write errors. */
  onerror?: (error: Error) => void;
  /** Each JSON-RPC message from the server. */
  onmessage?: (message: JSONRPCMessage) => void;
  readonly #options: StdioProcessTransportOptions;
  #child: ChildProcessWithoutNullStreams | null = null;
  #chunks: Buffer[] = [];
  #buffered = 0;
  #stderr = '';
  #closed = false;
  #exit: { code: number | null; signal: NodeJS.Signals | null } | null = null;
  readonly #marker = newServerMarker();
  /** Lines that were not JSON-RPC messages (diagnostics). */
  malformedLines = 0;
  /** Pids of processes that had left the server's process group and were killed by their marker. */
  readonly killedEscapedProcesses: number[] = [];

  constructor(options: StdioProcessTransportOptions) {
    this.#options = options;
  }

  /** Pid of the server process (its process group id), once started. */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /** The last {@link STDERR_TAIL_BYTES} characters the server wrote to stderr. */
  get stderrTail(): string {
    return this.#stderr;
  }

  /** How the process ended, once it has. */
  get exit(): { readonly code: number | null; readonly signal: NodeJS.Signals | null } | null {
    return this.#exit;
  }

  /** Spawns the server; resolves once the process runs, rejects when it cannot be started. */
  start(): Promise<void> {
    if (this.#child !== null) return Promise.reject(new Error('stdio transport already started'));
    return new Promise((resolve, reject) => {
      const child = spawn(this.#options.command, [...this.#options.args], {
        ...(this.#options.cwd === undefined ? {} : { cwd: this.#options.cwd }),
        // The marker follows descendants that leave the group (setsid): they are killed with it.
        env: buildChildEnvironment(process.env, { ...this.#options.env, [MCP_SERVER_MARKER_ENV]: this.#marker }),
        stdio: ['pipe', 'pipe', 'pipe'],
        // Its own process group: closing kills the server and everything it started.
        detached: true,
        windowsHide: true,
      });
      this.#child = child;
      let spawned = false;
      child.once('spawn', () => {
        spawned = true;
        if (child.pid !== undefined) registerServerGroup(child.pid, this.#marker);
        resolve();
      });
      child.once('error', (error) => {
        if (!spawned) {
          reject(new Error(`cannot start MCP server '${this.#options.command}': ${error.message}`, { cause: error }));
          this.#finish();
          return;
        }
        this.onerror?.(error);
      });
      child.once('exit', (code, signal) => {
        this.#exit = { code, signal };
        if (child.pid !== undefined) {
          // Stragglers of the group (grandchildren) go with the leader, and so do descendants
          // that left the group (setsid, double fork): found by the server's marker.
          signalProcessGroup(process, child.pid, 'SIGKILL');
          this.killedEscapedProcesses.push(...killMarkedProcesses(this.#marker));
          hostProcessGroups.unregister(child.pid);
        }
        this.#finish();
      });
      child.stdout.on('data', (chunk: Buffer) => this.#onData(chunk));
      child.stderr.on('data', (chunk: Buffer) => {
        this.#stderr = (this.#stderr + chunk.toString('utf8')).slice(-STDERR_TAIL_BYTES);
      });
      // A server that exits while we write must not raise an unhandled EPIPE.
      child.stdin.on('error', (error) => this.onerror?.(error));
    });
  }

  /** Writes one message as a line to the server's stdin. */
  send(message: JSONRPCMessage): Promise<void> {
    const child = this.#child;
    if (child === null || this.#closed || !child.stdin.writable) return Promise.reject(new Error('MCP server process is not running'));
    // Resolve once the stream took the line (or drained), not when the OS confirmed the write:
    // waiting for the write callback costs a round of the event loop per message. A failed
    // write surfaces through the stdin 'error' handler and the process exit.
    if (child.stdin.write(`${JSON.stringify(message)}\n`)) return Promise.resolve();
    return new Promise((resolve) => child.stdin.once('drain', () => resolve()));
  }

  /** Ends the server's process group (SIGTERM, SIGKILL after {@link STDIO_KILL_GRACE_MS}); resolves when it exited. */
  async close(): Promise<void> {
    const child = this.#child;
    if (child === null || this.#exit !== null) {
      this.#finish();
      return;
    }
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.stdin.end();
    const pid = child.pid;
    if (pid !== undefined) signalProcessGroup(process, pid, 'SIGTERM');
    const timer = setTimeout(() => {
      if (pid !== undefined) signalProcessGroup(process, pid, 'SIGKILL');
    }, STDIO_KILL_GRACE_MS);
    await exited;
    clearTimeout(timer);
  }

  #finish(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#chunks = [];
    this.#buffered = 0;
    this.onclose?.();
  }

  #onData(chunk: Buffer): void {
    let start = 0;
    let newline = chunk.indexOf(0x0a, start);
    while (newline !== -1) {
      const piece = chunk.subarray(start, newline);
      const line = this.#chunks.length === 0 ? piece : Buffer.concat([...this.#chunks, piece]);
      this.#chunks = [];
      this.#buffered = 0;
      this.#onLine(line.toString('utf8'));
      start = newline + 1;
      newline = chunk.indexOf(0x0a, start);
    }
    if (start < chunk.length) {
      this.#buffered += chunk.length - start;
      const limit = this.#options.maxMessageBytes ?? MAX_STDIO_MESSAGE_BYTES;
      if (this.#buffered > limit) {
        this.#chunks = [];
        this.#buffered = 0;
        this.onerror?.(new Error(`MCP server sent a line over ${limit} bytes; closing the connection`));
        void this.close();
        return;
      }
      this.#chunks.push(chunk.subarray(start));
    }
  }

  #onLine(raw: string): void {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.trim().length === 0) return;
    let message: JSONRPCMessage;
    try {
      message = JSONRPCMessageSchema.parse(JSON.parse(line));
    } catch {
      // Stray output (a log line, a broken message) is not fatal: note it and keep reading.
      this.malformedLines += 1;
      this.onerror?.(new Error(`MCP server wrote a line that is not a JSON-RPC message: ${line.slice(0, 120)}`));
      return;
    }
    this.onmessage?.(message);
  }
}
