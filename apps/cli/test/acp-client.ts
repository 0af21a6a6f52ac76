// Drives `a3s-code acp` (the built binary) with the ACP library's own client side over the
// child's stdio (ndJsonStream), recording every byte the agent wrote to stdout.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { PassThrough, Readable, Writable } from 'node:stream';
import { PROTOCOL_VERSION, client, methods, ndJsonStream } from '@agentclientprotocol/sdk';
import type { ClientConnection, InitializeResponse, RequestPermissionRequest, RequestPermissionResponse, SessionNotification, SessionUpdate } from '@agentclientprotocol/sdk';
import { binCommand } from './cli-harness.js';

/** How the test client answers a permission request. */
export type PermissionAnswer = 'allow_once' | 'allow_always' | 'reject_once' | 'cancelled' | 'never';

/**
 * The test client's editor (`fs/read_text_file`, `fs/write_text_file`): open buffers by absolute
 * path (a read of another file reads the disk, as editors do); writes land in the buffer only,
 * never on disk, so a test can tell they went through the editor. Every call is recorded.
 */
export interface TestEditor {
  readonly buffers: Map<string, string>;
  readonly calls: string[];
}

/** A running `a3s-code acp` and a connected ACP client. */
export interface AcpAgentProcess {
  readonly child: ChildProcessWithoutNullStreams;
  readonly connection: ClientConnection;
  /** Every `session/update` received so far, in order. */
  readonly updates: SessionNotification[];
  /** Every permission request received so far. */
  readonly permissionRequests: RequestPermissionRequest[];
  /** The answer given to the next permission requests (default `allow_once`). */
  answer: PermissionAnswer;
  /** All bytes the agent wrote to stdout / stderr. */
  stdout(): string;
  stderr(): string;
  /** Ends stdin (the client goes away) and resolves with the exit code. */
  close(): Promise<number>;
  readonly exited: Promise<number>;
}

/** Starts `a3s-code acp args...` in `cwd` and connects the client to its stdio. */
export function startAcpAgent(args: readonly string[], options: { env: Record<string, string>; cwd: string; editor?: TestEditor }): AcpAgentProcess {
  const [file, argv] = binCommand(['acp', ...args]);
  const child = spawn(file, argv, { cwd: options.cwd, env: options.env, stdio: ['pipe', 'pipe', 'pipe'] });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  const protocolIn = new PassThrough();
  child.stdout.on('data', (chunk: Buffer) => {
    out.push(chunk);
    protocolIn.write(chunk);
  });
  child.stdout.on('end', () => protocolIn.end());
  child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
  const exited = new Promise<number>((resolve) => child.on('exit', (code, signal) => resolve(code ?? (signal === null ? -1 : 128))));
  const updates: SessionNotification[] = [];
  const permissionRequests: RequestPermissionRequest[] = [];
  const state = { answer: 'allow_once' as PermissionAnswer };
  const app = client({ name: 'a3s-code-test' })
    .onNotification(methods.client.session.update, ({ params }) => {
      updates.push(params);
    })
    .onRequest(methods.client.session.requestPermission, ({ params }): RequestPermissionResponse | Promise<RequestPermissionResponse> => {
      permissionRequests.push(params);
      if (state.answer === 'never') return new Promise(() => undefined);
      if (state.answer === 'cancelled') return { outcome: { outcome: 'cancelled' } };
      return { outcome: { outcome: 'selected', optionId: state.answer } };
    });
  const editor = options.editor;
  if (editor !== undefined) {
    app
      .onRequest(methods.client.fs.readTextFile, ({ params }) => {
        editor.calls.push(`read ${params.path}`);
        return { content: editor.buffers.get(params.path) ?? readFileSync(params.path, 'utf8') };
      })
      .onRequest(methods.client.fs.writeTextFile, ({ params }) => {
        editor.calls.push(`write ${params.path}`);
        editor.buffers.set(params.path, params.content);
        return {};
      });
  }
  const stream = ndJsonStream(Writable.toWeb(child.stdin) as WritableStream<Uint8Array>, Readable.toWeb(protocolIn) as ReadableStream<Uint8Array>);
  const connection = app.connect(stream);
  return {
    child,
    connection,
    updates,
    permissionRequests,
    get answer() {
      return state.answer;
    },
    set answer(value: PermissionAnswer) {
      state.answer = value;
    },
    stdout: () => Buffer.concat(out).toString('utf8'),
    stderr: () => Buffer.concat(err).toString('utf8'),
    close: async () => {
      connection.close();
      child.stdin.end();
      return exited;
    },
    exited,
  };
}

/** `initialize` with a client that offers no file system (unless `fs` says so) and no terminal. */
export function initialize(agent: AcpAgentProcess, fs: { readTextFile: boolean; writeTextFile: boolean } = { readTextFile: false, writeTextFile: false }): Promise<InitializeResponse> {
  return agent.connection.agent.request(methods.agent.initialize, {
    protocolVersion: PROTOCOL_VERSION,
    clientCapabilities: { fs, terminal: false },
    clientInfo: { name: 'a3s-code-test', version: '0.0.0' },
  });
}

/** The updates of one kind received for `sessionId`. */
export function updatesOf<K extends SessionUpdate['sessionUpdate']>(agent: AcpAgentProcess, sessionId: string, kind: K): Extract<SessionUpdate, { sessionUpdate: K }>[] {
  return agent.updates.filter((n) => n.sessionId === sessionId && n.update.sessionUpdate === kind).map((n) => n.update as Extract<SessionUpdate, { sessionUpdate: K }>);
}

/** The text of a message chunk update; '' for any other update or content. */
export function chunkText(update: SessionUpdate): string {
  if (update.sessionUpdate !== 'user_message_chunk' && update.sessionUpdate !== 'agent_message_chunk' && update.sessionUpdate !== 'agent_thought_chunk') return '';
  return update.content.type === 'text' ? update.content.text : '';
}

/** The agent's message text for `sessionId`, all chunks joined. */
export function agentText(agent: AcpAgentProcess, sessionId: string): string {
  return updatesOf(agent, sessionId, 'agent_message_chunk')
    .map((u) => (u.content.type === 'text' ? u.content.text : ''))
    .join('');
}

/** Every non-empty stdout line that is not a JSON-RPC 2.0 message (must be none). */
export function nonProtocolLines(stdout: string): string[] {
  return stdout
    .split('\n')
    .filter((line) => line.length > 0)
    .filter((line) => {
      try {
        const message = JSON.parse(line) as { jsonrpc?: unknown };
        return message.jsonrpc !== '2.0';
      } catch {
        return true;
      }
    });
}
