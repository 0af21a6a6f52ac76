import type { SessionOptions, SessionStore, TelemetryOptions, ToolSource } from '@a3s-lab/code-core';
import type { ScheduleClock, ScheduleFire } from './agent-dir-server.js';
import type { LlmClientFactory } from './create-llm-client.js';
import type { SkippedSkill } from './load-skills.js';
import type { PostgresFleet } from './postgres-fleet-types.js';
import type { SandboxUnavailableWarning } from './session-sandbox.js';

/** Options of {@link Agent.create}. */
export interface AgentCreateOptions {
  /** Environment for `env("NAME")` in the config and for secret redaction. Default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Base directory for relative paths in the config. Default: the config file's directory or `process.cwd()`. */
  readonly cwd?: string;
  /**
   * Builds model clients; default: Anthropic / OpenAI-compatible clients from the config
   * (`createLlmClient`). With the default (or `createLlmClient` itself) the agent builds one
   * client per provider settings and model on first use and shares it among its sessions and
   * their subagents until `close()`; a host's own factory is called for every session and every
   * subagent child, so it decides itself what to share.
   */
  readonly llmClientFactory?: LlmClientFactory;
  /**
   * Extra tool sources attached to every session besides the built-in tools (and the MCP servers
   * of the config), e.g. a host's own tool catalogue. Each gets the session's narrow
   * `ToolSurface`; its binding is closed with the session. Default none.
   */
  readonly toolSources?: readonly ToolSource[];
  /**
   * Receives what was left out while opening a session: today a skill file of a skill directory
   * whose real path leaves that directory (a symlink out) or that is not a regular file
   * (`kind: 'skill_skipped'`); a session whose `sandbox` (`mode: 'auto'`) could not start, so its
   * processes run unsandboxed (`kind: 'sandbox_unavailable'`, with the reason). Default:
   * `process.emitWarning` (stderr).
   */
  readonly onWarning?: (warning: AgentWarning) => void;
  /**
   * OpenTelemetry for every session of this agent (a session's own `telemetry` overrides it field
   * by field; the ACL block `telemetry { ... }` is below both). Default: the global providers.
   */
  readonly telemetry?: TelemetryOptions;
}

/** What {@link AgentCreateOptions.onWarning} receives. */
export type AgentWarning = SkippedSkill | SandboxUnavailableWarning;

/** Options of {@link Agent.serveAgentDir}. */
export interface ServeAgentDirOptions {
  /** Where each schedule's session is kept across restarts (default: the agent's store, or the merged config's). */
  readonly sessionStore?: SessionStore;
  /** Time source (default the wall clock); tests inject a fake one. */
  readonly clock?: ScheduleClock;
  /** Observes every fire (completed, failed or skipped). */
  readonly onFire?: (fire: ScheduleFire) => void;
  /** Extra options of the schedule sessions (permissionPolicy, model...). */
  readonly sessionOptions?: SessionOptions;
  /**
   * Serve the schedules across hosts: each occurrence fires once across every host serving the
   * same directory (by name), as a run of `fleet` (`createFleet`) of the schedule's session, kept
   * in `fleet.sessionStore`; `missed` of a schedule (skip, once, all) applies. The host runs
   * `fleet.work()` itself (or other processes do). `clock` is this host's clock, handed to pg-boss.
   */
  readonly fleet?: PostgresFleet;
}
