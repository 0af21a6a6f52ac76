// The agent and the durable session of a chat: new, `--resume ID`, or `--continue` (the last
// session of this workspace), saved to the config's durable store, else ~/.a3s/sessions.
import { realpathSync } from 'node:fs';
import { CodeError, FileSessionStore } from '@a3s-lab/code';
import type { Agent, Session, SessionOptions, SessionStore } from '@a3s-lab/code';
import type { Style } from '../ansi.js';
import type { CliIo } from '../cli-io.js';
import { discoverConfig, noConfigurationError } from '../config-discovery.js';
import { defaultSessionsDir } from '../acp/acp-agents.js';
import { ensureTrustedConfig, recheckTrustedConfig } from '../project-trust-gate.js';
import { createAgentFrom, humanHostSessionOptions } from '../run-command.js';
import type { ChatOptions } from './chat-args.js';

/** An open chat: its agent, store, session, and what the header says. */
export interface OpenChat {
  readonly agent: Agent;
  readonly store: SessionStore;
  readonly session: Session;
  readonly model: string;
  readonly resumed: boolean;
  readonly from: string;
  /** The options the session was opened with (to open it again on another model). */
  readonly sessionOptions: SessionOptions;
}

/** One saved session of a workspace, newest first in {@link workspaceSessions}. */
export interface SavedSession {
  readonly sessionId: string;
  readonly updatedAtMs: number;
  readonly messages: number;
}

const real = (path: string): string => {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
};

/** The saved sessions of `workspace` in `store`, newest first (at most `limit` looked at). */
export async function workspaceSessions(store: SessionStore, workspace: string, limit = 200): Promise<SavedSession[]> {
  const entries = (await store.list()).sort((a, b) => b.updatedAtMs - a.updatedAtMs).slice(0, limit);
  const mine: SavedSession[] = [];
  const root = real(workspace);
  for (const entry of entries) {
    const snapshot = await store.load(entry.sessionId).catch(() => null);
    if (snapshot !== null && real(snapshot.workspace) === root) mine.push({ sessionId: entry.sessionId, updatedAtMs: entry.updatedAtMs, messages: snapshot.conversation.length });
  }
  return mine;
}

/** Loads the config, the agent and the chat's session. The caller closes `agent`. */
export async function openChat(options: ChatOptions, workspace: string, io: CliIo, style: Style): Promise<OpenChat> {
  const source = discoverConfig({
    workspace,
    cwd: io.cwd,
    env: io.env,
    ...(options.config === undefined ? {} : { explicit: options.config }),
    ...(options.model === undefined ? {} : { model: options.model }),
  });
  if (source === null) throw noConfigurationError({ workspace, env: io.env });
  await ensureTrustedConfig({ source, workspace, io, style, json: false });
  const agent = await createAgentFrom(source, io);
  try {
    recheckTrustedConfig(source, workspace, io);
    const store = agent.sessionStore.capabilities.durable ? agent.sessionStore : new FileSessionStore(defaultSessionsDir(io.env));
    const sessionOptions: SessionOptions = {
      sessionStore: store,
      autoSave: true,
      ...(options.model === undefined ? {} : { model: options.model }),
      ...humanHostSessionOptions(agent.config, options.permissionMode),
    };
    let resumeId = options.resume;
    if (options.continueLast) {
      const [last] = await workspaceSessions(store, workspace);
      if (last === undefined) throw new CodeError('CONFIG_ERROR', `--continue: no saved session of ${workspace} in ${store.name} (start one with a3s-code)`, { details: { workspace } });
      resumeId = last.sessionId;
    }
    if (resumeId !== undefined && (await store.load(resumeId)) === null) {
      throw new CodeError('CONFIG_ERROR', `--resume: no saved session '${resumeId}' in ${store.name}`, { details: { sessionId: resumeId } });
    }
    const session = resumeId === undefined ? await agent.sessionAsync(workspace, sessionOptions) : await agent.resumeSessionAsync(resumeId, sessionOptions);
    const from = source.kind === 'file' ? source.path : `environment (${source.description})`;
    return { agent, store, session, model: options.model ?? agent.config.defaultModel, resumed: resumeId !== undefined, from, sessionOptions };
  } catch (error) {
    await agent.close();
    throw error;
  }
}

/**
 * `/model provider/model`: the same durable session opened again on another declared model
 * (the conversation carries over). CONFIG_ERROR naming the declared models for any other.
 */
export async function switchModel(chat: OpenChat, model: string): Promise<OpenChat> {
  const declared = chat.agent.config.providers.flatMap((provider) => provider.models.map((m) => `${provider.name}/${m.id}`));
  if (!declared.includes(model)) throw new CodeError('CONFIG_ERROR', `/model: '${model}' is not declared in the config (one of ${declared.join(', ')})`, { details: { model, declared } });
  await chat.session.flushSaves().catch(() => undefined);
  await chat.session.closeAsync();
  const session = await chat.agent.resumeSessionAsync(chat.session.id, { ...chat.sessionOptions, model });
  return { ...chat, session, model, sessionOptions: { ...chat.sessionOptions, model } };
}
