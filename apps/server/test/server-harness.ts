import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Agent } from '@a3s-lab/code';
import { startScriptedModelServer } from '@a3s-lab/code-testing';
import type { ScriptedModelServer } from '@a3s-lab/code-testing';
import { readSseEvents, startServer } from '../src/index.js';
import type { RunningServer, ServerOptions, SseMessage } from '../src/index.js';

/** The fixed token of test servers. */
export const TEST_TOKEN = 'test-token-0123456789abcdefghij';

/** Inline ACL pointing the Anthropic provider at the scripted server. */
export function aclFor(model: ScriptedModelServer): string {
  return `
default_model = "anthropic/claude-test"
providers "anthropic" {
  api_key = "sk-ant-test-key-000000"
  base_url = "${model.anthropicBaseUrl}"
  models "claude-test" { tool_call = true  limit = { context = 200000  output = 4096 } }
}
`;
}

/** A scripted model, an agent, a workspace root with one repo, and a server over them. */
export interface ServerHarness {
  readonly model: ScriptedModelServer;
  readonly agent: Agent;
  readonly server: RunningServer;
  /** Temp directory: `state/`, `root/repo` (the workspace), `outside/`. */
  readonly dir: string;
  readonly stateDir: string;
  readonly repo: string;
  /** fetch against the server with the bearer token. */
  api(path: string, init?: RequestInit): Promise<Response>;
  /** JSON body of a successful API call (throws with the body otherwise). */
  json<T = Record<string, unknown>>(path: string, init?: RequestInit): Promise<T>;
  cleanup(): Promise<void>;
}

/** Starts everything a server test needs; `options` override the server's. */
export async function startServerHarness(options: Partial<ServerOptions> = {}): Promise<ServerHarness> {
  const model = await startScriptedModelServer({ scenario: [] });
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'a3s-server-')));
  const repo = join(dir, 'root', 'repo');
  for (const [path, content] of Object.entries({ 'README.md': '# sample\n', 'src/add.js': 'export const add = (a, b) => a - b;\n' })) {
    mkdirSync(dirname(join(repo, path)), { recursive: true });
    writeFileSync(join(repo, path), content);
  }
  mkdirSync(join(dir, 'outside'));
  const agent = await Agent.create(aclFor(model));
  const stateDir = join(dir, 'state');
  const server = await startServer({ agent, workspaceRoots: [join(dir, 'root')], stateDir, token: TEST_TOKEN, ...options });
  const api = (path: string, init: RequestInit = {}): Promise<Response> => {
    const headers = new Headers(init.headers);
    if (!headers.has('authorization')) headers.set('authorization', `Bearer ${TEST_TOKEN}`);
    if (init.body !== undefined && !headers.has('content-type')) headers.set('content-type', 'application/json');
    return fetch(`${server.url}${path}`, { ...init, headers });
  };
  return {
    model,
    agent,
    server,
    dir,
    stateDir,
    repo,
    api,
    json: async <T>(path: string, init?: RequestInit): Promise<T> => {
      const response = await api(path, init);
      const body = (await response.json()) as T;
      if (!response.ok) throw new Error(`${init?.method ?? 'GET'} ${path}: ${response.status} ${JSON.stringify(body)}`);
      return body;
    },
    cleanup: async () => {
      await server.close();
      await agent.close();
      await model.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Reads SSE messages from `response` until an `end` event (included) or `stop` says so. */
export async function collectSse(response: Response, stop: (message: SseMessage, all: readonly SseMessage[]) => boolean = (m) => m.event === 'end'): Promise<SseMessage[]> {
  if (response.body === null) throw new Error('no body');
  const all: SseMessage[] = [];
  for await (const message of readSseEvents(response.body)) {
    all.push(message);
    if (stop(message, all)) break;
  }
  return all;
}

/** JSON body `{ sequence, type }` of the recorded events among `messages`. */
export function sequences(messages: readonly SseMessage[]): number[] {
  return messages.filter((m) => m.id !== null).map((m) => Number(m.id));
}
