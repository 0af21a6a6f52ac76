// The agents behind `a3s-code acp`: one per discovered configuration (a session's cwd picks it,
// like `run`'s workspace does), and the durable store its sessions are saved to.
import { homedir } from 'node:os';
import { join } from 'node:path';
import { Agent, FileSessionStore } from '@a3s-lab/code';
import type { SessionStore } from '@a3s-lab/code';
import { createStyle } from '../ansi.js';
import type { CliIo } from '../cli-io.js';
import { discoverConfig, noConfigurationError } from '../config-discovery.js';
import { ensureTrustedConfig, recheckTrustedConfig } from '../project-trust-gate.js';
import { createAgentFrom } from '../run-command.js';

/** Options of `a3s-code acp`. */
export interface AcpOptions {
  /** `--config FILE`; default: discovered per session cwd (see README). */
  readonly config?: string;
  /** `--model provider/model`. */
  readonly model?: string;
  /** `--permission-mode`: the mode new sessions start in (default `default`). */
  readonly permissionMode?: import('../permission-modes.js').PermissionMode;
}

/** An agent and the store its ACP sessions live in. */
export interface LoadedAgent {
  readonly agent: Agent;
  readonly store: SessionStore;
  /** Where the configuration came from (for logs). */
  readonly from: string;
}

/** The default durable store of the terminal hosts: `~/.a3s/sessions` (HOME respected). */
export function defaultSessionsDir(env: Readonly<Record<string, string | undefined>>): string {
  return join(env['HOME'] ?? homedir(), '.a3s', 'sessions');
}

/** Loads (once per configuration) the agents sessions run on. */
export class AcpAgents {
  readonly #io: CliIo;
  readonly #options: AcpOptions;
  readonly #agents = new Map<string, Promise<LoadedAgent>>();

  constructor(io: CliIo, options: AcpOptions) {
    this.#io = io;
    this.#options = options;
  }

  /**
   * The agent for a session whose cwd is `workspace`: `--config`, the workspace's trusted
   * `.a3s/config.acl`, `~/.a3s/config.acl`, or the API-key environment. CONFIG_ERROR when none
   * is found, or when the workspace's own config was never trusted (`a3s-code trust`).
   */
  async forWorkspace(workspace: string): Promise<LoadedAgent> {
    const io = this.#io;
    const source = discoverConfig({
      workspace,
      cwd: io.cwd,
      env: io.env,
      ...(this.#options.config === undefined ? {} : { explicit: this.#options.config }),
      ...(this.#options.model === undefined ? {} : { model: this.#options.model }),
    });
    if (source === null) throw noConfigurationError({ workspace, env: io.env });
    // No questions here: stdin carries the protocol. An untrusted project config is refused.
    await ensureTrustedConfig({ source, workspace, io, style: createStyle(false), json: true });
    const key = source.kind === 'file' ? `file:${source.path}` : `env:${source.acl}`;
    let loaded = this.#agents.get(key);
    if (loaded === undefined) {
      loaded = (async (): Promise<LoadedAgent> => {
        const agent = await createAgentFrom(source, io);
        recheckTrustedConfig(source, workspace, io);
        // The config's durable store (file, s3) when it declares one; else ~/.a3s/sessions.
        const store = agent.sessionStore.capabilities.durable ? agent.sessionStore : new FileSessionStore(defaultSessionsDir(io.env));
        return { agent, store, from: source.kind === 'file' ? source.path : `environment (${source.description})` };
      })();
      this.#agents.set(key, loaded);
      loaded.catch(() => this.#agents.delete(key));
    }
    return loaded;
  }

  /** Closes every agent (their sessions' tool processes end). */
  async close(): Promise<void> {
    const agents = await Promise.allSettled([...this.#agents.values()]);
    this.#agents.clear();
    await Promise.allSettled(agents.flatMap((result) => (result.status === 'fulfilled' ? [result.value.agent.close()] : [])));
  }
}
