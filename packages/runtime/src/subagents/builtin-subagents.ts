// The built-in agents and worker specs as subagent definitions, and what a child of one may do.
import { CodeError } from '@a3s-lab/code-core';
import type { ConfirmationInheritance, PermissionPolicy, SubagentAuthority, SubagentDefinition, SubagentToolSet, WorkerAgentSpec, WorkerKind } from '@a3s-lab/code-core';
import { validatePermissionPolicy } from '@a3s-lab/code-core/kernel';

/** Tools no child is ever given: delegation does not recurse. */
export const DELEGATION_TOOLS: readonly string[] = Object.freeze(['task', 'parallel_task']);

const READ_ONLY_TOOLS = Object.freeze(['read', 'grep', 'glob', 'ls']);

/** Default maxSteps of a child. */
export const DEFAULT_SUBAGENT_MAX_STEPS = 24;

/** Tools of each worker kind. */
export const WORKER_KIND_TOOLS: Readonly<Record<WorkerKind, SubagentToolSet>> = Object.freeze({
  read_only: READ_ONLY_TOOLS,
  planner: READ_ONLY_TOOLS,
  reviewer: READ_ONLY_TOOLS,
  verifier: Object.freeze([...READ_ONLY_TOOLS, 'bash', 'git']),
  implementer: 'all',
  custom: 'all',
});

const KIND_PROMPTS: Readonly<Record<WorkerKind, string>> = Object.freeze({
  read_only: 'You explore a codebase without changing it. Search and read, then report concrete findings with file paths and line numbers.',
  planner: 'You plan without changing anything. Read what you need, then answer with a numbered, step-by-step plan naming the files to change and how to verify each step.',
  reviewer: 'You review adversarially without changing anything. Look for bugs, missing tests, unsafe behaviour and unhandled cases; report each finding with its evidence (file and line).',
  verifier: 'You verify without editing files. Run the narrowest relevant checks (tests, type checks, linters), then report which passed and which failed with the evidence.',
  implementer: 'You implement a focused change: read the relevant code, make the smallest correct edit, run the narrowest relevant check, and summarise what you changed and how you verified it.',
  custom: 'You complete the delegated task with the tools you have and report the result.',
});

const BUILTINS: readonly SubagentDefinition[] = Object.freeze([
  builtin('explore', 'Finds files, symbols and facts (read-only).', 'read_only'),
  builtin('plan', 'Returns a step-by-step plan (read-only).', 'planner'),
  builtin('general', 'Full tool set, no further delegation.', 'implementer'),
  builtin('verification', 'Runs tests, type checks, linters; reports evidence, never edits.', 'verifier'),
  builtin('review', 'Adversarial read-only review.', 'reviewer'),
]);

function builtin(name: string, description: string, kind: WorkerKind): SubagentDefinition {
  return Object.freeze({ name, description, kind, prompt: KIND_PROMPTS[kind], tools: WORKER_KIND_TOOLS[kind], maxSteps: DEFAULT_SUBAGENT_MAX_STEPS, confirmationInheritance: 'auto_approve', builtin: true });
}

/**
 * The built-in agents: `explore`, `plan`, `general`, `verification`, `review`; their children
 * answer `ask` as `inheritance` says (default `auto_approve`).
 */
export function builtinSubagents(inheritance: ConfirmationInheritance = 'auto_approve'): readonly SubagentDefinition[] {
  return inheritance === 'auto_approve' ? BUILTINS : BUILTINS.map((agent) => Object.freeze({ ...agent, confirmationInheritance: inheritance }));
}

/** The tools a child of `agent` gets out of its parent's `parentTools`. */
export function subagentTools(agent: SubagentDefinition, parentTools: readonly string[]): string[] {
  const own = agent.tools;
  return parentTools.filter((name) => !DELEGATION_TOOLS.includes(name) && (own === 'all' || own.includes(name)));
}

/** What approving a task for `agent` unlocks, for the confirmation shown to the human. */
export function subagentAuthority(agent: SubagentDefinition, parentTools: readonly string[]): SubagentAuthority {
  const tools = subagentTools(agent, parentTools);
  return { agent: agent.name, confirmationInheritance: agent.confirmationInheritance, tools, unconfirmedTools: agent.confirmationInheritance === 'auto_approve' ? tools : [] };
}

/**
 * Turns a worker spec into a definition (kind's tools and prompt; the spec's prompt is appended).
 * A spec without `confirmationInheritance` gets `defaultInheritance` (the session's
 * `subagentConfirmationInheritance`; default `auto_approve`).
 */
export function workerDefinition(spec: WorkerAgentSpec, defaultInheritance: ConfirmationInheritance = 'auto_approve'): SubagentDefinition {
  const permissions = spec.permissions === undefined ? undefined : validateWorkerPermissions(spec);
  return Object.freeze({
    name: spec.name,
    description: spec.description,
    kind: spec.kind,
    prompt: spec.prompt === undefined || spec.prompt.length === 0 ? KIND_PROMPTS[spec.kind] : `${KIND_PROMPTS[spec.kind]}\n\n${spec.prompt}`,
    tools: WORKER_KIND_TOOLS[spec.kind],
    ...(spec.model === undefined ? {} : { model: spec.model }),
    maxSteps: spec.maxSteps ?? DEFAULT_SUBAGENT_MAX_STEPS,
    ...(permissions === undefined ? {} : { permissions }),
    confirmationInheritance: spec.confirmationInheritance ?? defaultInheritance,
    builtin: false,
  });
}

function validateWorkerPermissions(spec: WorkerAgentSpec): PermissionPolicy {
  try {
    return validatePermissionPolicy(spec.permissions);
  } catch (error) {
    throw new CodeError('SESSION_CONFIGURATION_ERROR', `invalid permissions of worker '${spec.name}': ${error instanceof Error ? error.message : String(error)}`, {
      details: { field: 'workerAgents.permissions', worker: spec.name },
    });
  }
}
