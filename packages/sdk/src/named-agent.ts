import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { loadAgentDirectory } from '@a3s-lab/code-config';
import type { AgentDirectory } from '@a3s-lab/code-config';
import { CodeError } from '@a3s-lab/code-core';
import type { SessionOptions, SubagentDefinition } from '@a3s-lab/code-core';
import { builtinSubagents } from '@a3s-lab/code-runtime';
import { directorySkills } from './load-skills.js';

/** What an agent name given to `sessionForAgent` names: a built-in agent, or an agent directory (loaded). */
export type NamedAgent = { readonly kind: 'builtin'; readonly definition: SubagentDefinition } | { readonly kind: 'directory'; readonly directory: AgentDirectory };

/**
 * The agent named `name`: a built-in agent, else the first directory of that name with an
 * `instructions.md` under `agentDirs` (the config's `agent_dirs`). SESSION_CONFIGURATION_ERROR
 * listing both kinds when there is none.
 */
export function resolveNamedAgent(agentDirs: readonly string[], name: string): NamedAgent {
  const definition = builtinSubagents().find((a) => a.name === name);
  if (definition !== undefined) return { kind: 'builtin', definition };
  const directory = findAgentDirectory(agentDirs, name);
  if (directory === undefined) {
    const dirs = agentDirectoryNames(agentDirs);
    throw new CodeError('SESSION_CONFIGURATION_ERROR', `unknown agent '${name}'; built-in agents: ${builtinSubagents().map((a) => a.name).join(', ')}${dirs.length === 0 ? '' : `; agent directories: ${dirs.join(', ')}`}`, { details: { field: 'agent', agent: name } });
  }
  return { kind: 'directory', directory: loadAgentDirectory(directory) };
}

/** The options of a session of a directory agent: its instructions first, its skills added. */
export function directoryAgentOptions(directory: AgentDirectory, options: SessionOptions): SessionOptions {
  return { ...options, instructions: options.instructions === undefined ? directory.instructions : `${directory.instructions}\n\n${options.instructions}`, inlineSkills: [...(options.inlineSkills ?? []), ...directorySkills(directory)] };
}

/** The options of a top-level session acting as `agent`: its step limit, model, prompt first and permissions under `options`. */
export function actingAgentOptions(agent: SubagentDefinition, options: SessionOptions): SessionOptions {
  const policy = options.permissionPolicy ?? agent.permissions;
  return {
    maxToolRounds: agent.maxSteps,
    ...(agent.model === undefined ? {} : { model: agent.model }),
    ...options,
    instructions: options.instructions === undefined ? agent.prompt : `${agent.prompt}\n\n${options.instructions}`,
    ...(policy === undefined ? {} : { permissionPolicy: policy }),
  };
}

function findAgentDirectory(agentDirs: readonly string[], name: string): string | undefined {
  if (!/^[A-Za-z0-9._-]+$/.test(name) || name === '.' || name === '..') return undefined;
  for (const root of agentDirs) {
    const candidate = join(root, name);
    if (existsSync(join(candidate, 'instructions.md'))) return candidate;
  }
  return undefined;
}

function agentDirectoryNames(agentDirs: readonly string[]): string[] {
  return agentDirs.flatMap((root) => {
    try {
      return readdirSync(root).filter((n) => existsSync(join(root, n, 'instructions.md')));
    } catch {
      return [];
    }
  });
}
