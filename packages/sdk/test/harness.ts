import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { startScriptedModelServer } from '@a3s-lab/code-testing';
import type { Scenario, ScriptedModelServer } from '@a3s-lab/code-testing';
import { Agent } from '../src/index.js';

/** Wire protocol a test drives the agent through. */
export type Protocol = 'anthropic' | 'openai';

/** Both protocols, for `describe.each`. */
export const PROTOCOLS: readonly Protocol[] = ['anthropic', 'openai'];

export interface Harness {
  readonly server: ScriptedModelServer;
  readonly agent: Agent;
  readonly dir: string;
  cleanup(): Promise<void>;
}

/** Inline ACL pointing both providers at the scripted server; `protocol` picks the default model. */
export function aclFor(server: ScriptedModelServer, protocol: Protocol, extra = ''): string {
  const model = protocol === 'anthropic' ? 'anthropic/claude-test' : 'openai/gpt-test';
  return `
default_model = "${model}"
${extra}
providers "anthropic" {
  api_key = "sk-ant-test-key-000000"
  base_url = "${server.anthropicBaseUrl}"
  models "claude-test" { tool_call = true  limit = { context = 200000  output = 4096 } }
}
providers "openai" {
  api_key = "sk-test-openai-000000"
  base_url = "${server.openaiBaseUrl}"
  models "gpt-test" { tool_call = true }
}
`;
}

/** Writes `files` (path -> content) under `dir`. */
export function writeFiles(dir: string, files: Readonly<Record<string, string>>): void {
  for (const [path, content] of Object.entries(files)) {
    const full = join(dir, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, content);
  }
}

/** Starts a scripted server, an agent on it and a temp workspace holding `files`. */
export async function startHarness(protocol: Protocol, scenario: Scenario, files: Readonly<Record<string, string>> = {}, options: { git?: boolean } = {}): Promise<Harness> {
  const server = await startScriptedModelServer({ scenario });
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'a3s-sdk-')));
  writeFiles(dir, files);
  if (options.git === true) {
    const git = (...args: string[]): void => {
      execFileSync('git', args, { cwd: dir, stdio: 'ignore', env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' } });
    };
    git('init', '-q', '-b', 'main');
    git('add', '-A');
    git('commit', '-q', '-m', 'initial');
  }
  const agent = await Agent.create(aclFor(server, protocol));
  return {
    server,
    agent,
    dir,
    cleanup: async () => {
      await agent.close();
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
