// The ACP agent app: initialize, session/new, session/load, session/prompt, session/cancel,
// session/set_mode and session/set_config_option (the model) on our SDK. Any other method is answered by the library with
// method-not-found: nothing is accepted that does not act.
import { resolve } from 'node:path';
import { CodeError } from '@a3s-lab/code';
import type { Session, SessionOptions } from '@a3s-lab/code';
import { PROTOCOL_VERSION, RequestError, agent as acpAgent, methods } from '@agentclientprotocol/sdk';
import type { AgentApp, AgentContext, InitializeResponse, McpServer, SessionConfigOption, SessionId } from '@agentclientprotocol/sdk';
import { permissionPolicyFor } from '../permission-modes.js';
import type { PermissionMode } from '../permission-modes.js';
import { HOST_SUBAGENT_CONFIRMATION_INHERITANCE, INTERACTIVE_CONFIRMATION_TIMEOUT_MS, resolveWorkspace } from '../run-command.js';
import type { CliIo } from '../cli-io.js';
import type { AcpAgents, AcpOptions, LoadedAgent } from './acp-agents.js';
import { AcpSession, modeState } from './acp-session.js';
import { editorFilesOverlay, offersFiles } from './editor-files.js';
import type { EditorFileAccess } from './editor-files.js';
import { addMcpServers } from './mcp-servers.js';
import { configOptions, selectedModel } from './model-option.js';
import { replayUpdates } from './replay.js';

/** What `initialize` answers. */
export function initializeResponse(version: string, requested: number): InitializeResponse {
  return {
    protocolVersion: Math.min(requested, PROTOCOL_VERSION),
    agentCapabilities: {
      loadSession: true,
      promptCapabilities: { image: true, audio: false, embeddedContext: true },
      mcpCapabilities: { http: true, sse: false },
    },
    agentInfo: { name: 'a3s-code', title: 'A3S Code', version },
    authMethods: [],
  };
}

/** A CodeError (config, session) as a JSON-RPC error the client shows; others pass through. */
const protocolError = (error: unknown): unknown =>
  error instanceof CodeError ? RequestError.internalError({ code: error.code, ...(error.details === undefined ? {} : { details: error.details }) }, error.message) : error;

/** Options of {@link createAcpAgent}. */
export interface AcpAgentOptions {
  readonly io: CliIo;
  readonly options: AcpOptions;
  readonly agents: AcpAgents;
  readonly version: string;
  readonly log: (line: string) => void;
}

/** The agent app and the sessions it serves (closed by `closeAll` when the client goes away). */
export function createAcpAgent(config: AcpAgentOptions): { app: AgentApp; closeAll: () => Promise<void> } {
  const { io, options, agents, log } = config;
  const sessions = new Map<SessionId, AcpSession>();
  const initialMode = options.permissionMode ?? 'default';
  // What the client offered in `initialize`: its file methods serve the sessions' reads and writes.
  let fileAccess: EditorFileAccess = { read: false, write: false };

  /** The client's buffers as the session's file access (behind the kernel and our confinement). */
  const editorFiles = (client: AgentContext, sessionId: () => string): SessionOptions => {
    if (!offersFiles(fileAccess)) return {};
    const readText = async (path: string): Promise<string> => (await client.request(methods.client.fs.readTextFile, { sessionId: sessionId(), path })).content;
    const writeText = async (path: string, content: string): Promise<void> => {
      await client.request(methods.client.fs.writeTextFile, { sessionId: sessionId(), path, content });
    };
    return { workspaceOverlay: editorFilesOverlay({ readText, writeText, log }, fileAccess) };
  };

  const sessionOptions = (loaded: LoadedAgent): SessionOptions => ({
    sessionStore: loaded.store,
    autoSave: true,
    ...(options.model === undefined ? {} : { model: options.model }),
    // The config's own policy, else the `default` preset (which asks about everything but the
    // read-only tools): the session's mode (--permission-mode, then session/set_mode) decides
    // every ask on top of it, so each preset acts as documented and can be switched both ways.
    ...(loaded.agent.config.permissionPolicy === undefined ? { permissionPolicy: permissionPolicyFor('default') } : {}),
    confirmationPolicy: { defaultTimeoutMs: INTERACTIVE_CONFIRMATION_TIMEOUT_MS, ...loaded.agent.config.confirmationPolicy },
    subagentConfirmationInheritance: loaded.agent.config.subagentConfirmationInheritance ?? HOST_SUBAGENT_CONFIRMATION_INHERITANCE,
  });

  /** What a served session was opened with, to open it again on another model. */
  const origins = new Map<SessionId, { loaded: LoadedAgent; mcpServers: McpServer[] }>();

  const attach = (session: Session, client: AgentContext, origin: { loaded: LoadedAgent; mcpServers: McpServer[] }, mode: PermissionMode = initialMode, allowed: Iterable<string> = []): AcpSession => {
    const sessionId = session.id;
    const served = new AcpSession(
      session,
      mode,
      {
        notify: (update) => client.notify(methods.client.session.update, { sessionId, update }),
        ask: (toolCall, choices, signal) => client.request(methods.client.session.requestPermission, { sessionId, toolCall, options: [...choices] }, { cancellationSignal: signal, stopWaitingOnCancel: true }),
        log,
      },
      allowed,
    );
    sessions.set(sessionId, served);
    origins.set(sessionId, origin);
    return served;
  };

  /** The config options a session reports (the model select when the config declares several). */
  const optionsOf = (served: AcpSession, loaded: LoadedAgent): SessionConfigOption[] => configOptions(loaded.agent, served.model ?? loaded.agent.config.defaultModel);

  const served = (sessionId: SessionId): AcpSession => {
    const session = sessions.get(sessionId);
    if (session === undefined) throw new RequestError(-32002, `Resource not found: session ${sessionId} is not open on this connection`, { sessionId });
    return session;
  };

  const workspaceOf = (cwd: string, additionalDirectories: readonly string[] | undefined): string => {
    // Not advertised: a session is confined to one workspace, so extra roots would not act.
    if (additionalDirectories !== undefined && additionalDirectories.length > 0) {
      throw RequestError.invalidParams({ additionalDirectories }, 'additionalDirectories are not supported: a session works in its cwd only');
    }
    return resolveWorkspace(io, resolve(io.cwd, cwd));
  };

  const app = acpAgent({ name: 'a3s-code' })
    .onRequest(methods.agent.initialize, ({ params }) => {
      const fs = params.clientCapabilities?.fs;
      fileAccess = { read: fs?.readTextFile === true, write: fs?.writeTextFile === true };
      return initializeResponse(config.version, params.protocolVersion);
    })
    .onRequest(methods.agent.session.new, async ({ params, client }) => {
      try {
        const workspace = workspaceOf(params.cwd, params.additionalDirectories);
        const loaded = await agents.forWorkspace(workspace);
        const opening = { id: '' };
        const session = await loaded.agent.sessionAsync(workspace, { ...sessionOptions(loaded), ...editorFiles(client, () => opening.id) });
        opening.id = session.id;
        try {
          await addMcpServers(session, params.mcpServers, workspace);
        } catch (error) {
          await session.closeAsync().catch(() => undefined);
          throw error;
        }
        const opened = attach(session, client, { loaded, mcpServers: params.mcpServers });
        log(`session ${session.id} · ${workspace} · config: ${loaded.from}`);
        return { sessionId: session.id, modes: modeState(initialMode), configOptions: optionsOf(opened, loaded) };
      } catch (error) {
        throw protocolError(error);
      }
    })
    .onRequest(methods.agent.session.load, async ({ params, client }) => {
      try {
        if (sessions.has(params.sessionId)) throw RequestError.invalidRequest({ sessionId: params.sessionId }, `session ${params.sessionId} is already open on this connection`);
        const workspace = workspaceOf(params.cwd, params.additionalDirectories);
        const loaded = await agents.forWorkspace(workspace);
        if ((await loaded.store.load(params.sessionId)) === null) throw RequestError.invalidParams({ sessionId: params.sessionId }, `no saved session ${params.sessionId} in the session store`);
        const session = await loaded.agent.resumeSessionAsync(params.sessionId, { ...sessionOptions(loaded), ...editorFiles(client, () => params.sessionId) });
        try {
          await addMcpServers(session, params.mcpServers, session.workspace);
        } catch (error) {
          await session.closeAsync().catch(() => undefined);
          throw error;
        }
        const opened = attach(session, client, { loaded, mcpServers: params.mcpServers });
        for (const update of replayUpdates(session.snapshot().conversation, session.workspace)) {
          await client.notify(methods.client.session.update, { sessionId: session.id, update });
        }
        log(`session ${session.id} loaded · ${session.workspace} · config: ${loaded.from}`);
        return { modes: modeState(initialMode), configOptions: optionsOf(opened, loaded) };
      } catch (error) {
        throw protocolError(error);
      }
    })
    .onRequest(methods.agent.session.prompt, async ({ params }) => {
      try {
        return { stopReason: await served(params.sessionId).prompt(params.prompt) };
      } catch (error) {
        throw protocolError(error);
      }
    })
    .onRequest(methods.agent.session.setMode, ({ params }) => {
      served(params.sessionId).setMode(params.modeId);
      return {};
    })
    .onRequest(methods.agent.session.setConfigOption, async ({ params, client }) => {
      try {
        const current = served(params.sessionId);
        const origin = origins.get(params.sessionId)!;
        const model = selectedModel(origin.loaded.agent, params.configId, params.value);
        if (current.running) throw RequestError.invalidRequest({ sessionId: params.sessionId }, 'the model cannot change while a prompt is running');
        // The same durable session, opened again on the other model: conversation, mode and
        // "always" rules carry over; the client's MCP servers are connected again.
        await current.session.flushSaves().catch(() => undefined);
        await current.session.closeAsync();
        sessions.delete(params.sessionId);
        const session = await origin.loaded.agent.resumeSessionAsync(params.sessionId, { ...sessionOptions(origin.loaded), ...editorFiles(client, () => params.sessionId), model });
        await addMcpServers(session, origin.mcpServers, session.workspace);
        const next = attach(session, client, origin, current.mode, current.allowedTools);
        log(`session ${session.id} now on ${model}`);
        return { configOptions: optionsOf(next, origin.loaded) };
      } catch (error) {
        throw protocolError(error);
      }
    })
    .onNotification(methods.agent.session.cancel, async ({ params }) => {
      await sessions.get(params.sessionId)?.cancel();
    });

  const closeAll = async (): Promise<void> => {
    const open = [...sessions.values()];
    sessions.clear();
    await Promise.allSettled(open.map((session) => session.close()));
  };
  return { app, closeAll };
}
