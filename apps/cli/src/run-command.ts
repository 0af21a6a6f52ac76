import { statSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { Agent, CodeError } from '@a3s-lab/code';
import type { SessionOptions } from '@a3s-lab/code';
import type { Style } from './ansi.js';
import type { CliIo } from './cli-io.js';
import { discoverConfig, noConfigurationError } from './config-discovery.js';
import type { ConfigSource } from './config-discovery.js';
import { hostRun } from './host-run.js';
import type { RunCommandOptions } from './parse-args.js';
import { permissionPolicyFor } from './permission-modes.js';
import type { PermissionMode } from './permission-modes.js';
import { ensureTrustedConfig, recheckTrustedConfig } from './project-trust-gate.js';
import { reportError } from './report-error.js';
import { promptWithStdin } from './stdin-prompt.js';

/**
 * How long an interactive ask waits for the human before it is rejected (the session default of
 * 30 s is meant for programs, not for someone reading a diff). The config can still set its own.
 */
export const INTERACTIVE_CONFIRMATION_TIMEOUT_MS = 30 * 60_000;

/** The workspace directory of a run; CONFIG_ERROR when it is not a directory. */
export function resolveWorkspace(io: CliIo, workspace: string | undefined): string {
  const dir = resolve(io.cwd, workspace ?? '.');
  if (!isDirectory(dir)) throw new CodeError('CONFIG_ERROR', `workspace is not a directory: ${dir}`, { details: { argument: '--workspace', path: dir } });
  return dir;
}

const isDirectory = (path: string): boolean => {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
};

/**
 * The file `-o` writes the answer to, checked before the run so a bad path costs no model call:
 * CONFIG_ERROR when its directory is missing or the path is a directory.
 */
export function resolveOutputFile(io: CliIo, output: string): string {
  const file = resolve(io.cwd, output);
  const problem = isDirectory(file) ? 'is a directory' : isDirectory(dirname(file)) ? null : 'is in a directory that does not exist';
  if (problem !== null) throw new CodeError('CONFIG_ERROR', `-o ${output}: ${file} ${problem}`, { details: { usage: true, argument: '--output', path: file } });
  return file;
}

/** Loads the agent from a discovered config; a broken file is a CONFIG_ERROR that names it. */
export async function createAgentFrom(source: ConfigSource, io: CliIo): Promise<Agent> {
  try {
    return await Agent.create(source.kind === 'file' ? source.path : source.acl, { env: io.env, cwd: io.cwd });
  } catch (error) {
    if (source.kind === 'file' && CodeError.isInstance(error) && !error.message.includes(source.path)) {
      throw new CodeError(error.code, `${source.path}: ${error.message}`, { details: { ...error.details, file: source.path }, cause: error });
    }
    throw error;
  }
}

/** How children of `task` answer `ask` in the reference hosts when the config does not say. */
export const HOST_SUBAGENT_CONFIRMATION_INHERITANCE = 'inherit_parent' as const;

/**
 * The session options every host with a human at the terminal sets (`run`, the chat): an explicit
 * permission mode wins, else the config's own policy, else the `default` mode; confirmations
 * wait {@link INTERACTIVE_CONFIRMATION_TIMEOUT_MS} unless the config says otherwise; and approving
 * a `task` does not approve what its child runs — the child's asks come to this human too, unless
 * the config chooses otherwise (`subagent_confirmation_inheritance`).
 */
export function humanHostSessionOptions(config: Agent['config'], permissionMode: PermissionMode | undefined): SessionOptions {
  return {
    ...(permissionMode !== undefined
      ? { permissionPolicy: permissionPolicyFor(permissionMode) }
      : config.permissionPolicy === undefined
        ? { permissionPolicy: permissionPolicyFor('default') }
        : {}),
    confirmationPolicy: { defaultTimeoutMs: INTERACTIVE_CONFIRMATION_TIMEOUT_MS, ...config.confirmationPolicy },
    subagentConfirmationInheritance: config.subagentConfirmationInheritance ?? HOST_SUBAGENT_CONFIRMATION_INHERITANCE,
  };
}

/** `a3s-code run`: discovers the config, opens a session, streams the prompt. Returns the exit code. */
export async function runCommand(options: RunCommandOptions, io: CliIo, style: Style): Promise<number> {
  let agent: Agent | undefined;
  try {
    const workspace = resolveWorkspace(io, options.workspace);
    const outputFile = options.output === undefined ? undefined : resolveOutputFile(io, options.output);
    const source = discoverConfig({
      workspace,
      cwd: io.cwd,
      env: io.env,
      ...(options.config === undefined ? {} : { explicit: options.config }),
      ...(options.model === undefined ? {} : { model: options.model }),
    });
    if (source === null) {
      return reportError(io, options.json, style, noConfigurationError({ workspace, env: io.env }), 'Set ANTHROPIC_API_KEY, write an agent.acl (see the README), or try `a3s-code demo` to see a session with the bundled scripted model.');
    }
    await ensureTrustedConfig({ source, workspace, io, style, json: options.json });
    agent = await createAgentFrom(source, io);
    recheckTrustedConfig(source, workspace, io);
    const model = options.model ?? agent.config.defaultModel;
    const sessionOptions: SessionOptions = {
      ...(options.model === undefined ? {} : { model: options.model }),
      ...(options.maxToolRounds === undefined ? {} : { maxToolRounds: options.maxToolRounds }),
      ...humanHostSessionOptions(agent.config, options.permissionMode),
    };
    const session = await agent.sessionAsync(workspace, sessionOptions);
    if (!options.json) {
      const mode = options.permissionMode ?? (agent.config.permissionPolicy === undefined ? 'default' : 'from config');
      const from = source.kind === 'file' ? source.path : `environment (${source.description})`;
      io.stderr.write(style.dim(`a3s-code · ${model} · ${workspace} · permissions: ${mode}${options.yes ? ' + --yes' : ''} · config: ${from}\n`));
    }
    const prompt = await promptWithStdin(options.prompt, io, style);
    const outcome = await hostRun({ session, prompt, io, style, json: options.json, yes: options.yes, model, compact: options.compact === true });
    if (outputFile !== undefined && outcome.error === undefined && !outcome.cancelled) writeFileSync(outputFile, outcome.text);
    // The renderer's error line (stderr) or the `error` envelope (--json) already said why the
    // run failed: a 401 is reported once.
    return outcome.exitCode;
  } catch (error) {
    return reportError(io, options.json, style, error);
  } finally {
    await agent?.close();
  }
}

