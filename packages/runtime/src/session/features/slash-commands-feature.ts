import type { RunRecord, SendRequest, SlashCommandHandler, SlashCommandInfo, ToolDefinition } from '@a3s-lab/code-core';
import { ContextCompactor } from '../context-compactor.js';
import type { FeatureCommand, SessionFeature } from '../session-feature.js';
import { SlashCommandRegistry } from '../slash-commands.js';
import type { FeatureContext } from './feature-context.js';
import type { PlanningFeature } from './planning-feature.js';

/** Slash commands: `/name args` sent to the session runs a handler instead of a model turn. */
export interface SlashCommandsFeature extends SessionFeature {
  /** Registers a host command. Built-in commands (every feature's `commands`) cannot be replaced. */
  register(name: string, description: string, handler: SlashCommandHandler): void;
  /** Registers a feature's command as a built-in. */
  registerBuiltin(command: FeatureCommand): void;
  /** Every command, built-ins included, by name. */
  list(): SlashCommandInfo[];
  /** The command `request` invokes, as a run body; `undefined` when it is a prompt for the model. */
  commandOf(request: SendRequest): ((signal: AbortSignal) => Promise<string>) | undefined;
}

/** What the built-in commands read besides the feature context. */
export interface SlashCommandParts {
  readonly planning: PlanningFeature;
  /** The auto-compaction compactor, or `null` when `autoCompact` is off. */
  readonly compactor: () => ContextCompactor | null;
  readonly system: () => string;
  readonly requestTools: () => readonly ToolDefinition[];
}

export function slashCommandsFeature(ctx: FeatureContext, parts: SlashCommandParts): SlashCommandsFeature {
  const registry = new SlashCommandRegistry();
  return {
    name: 'slash-commands',
    commands: builtinCommands(ctx, parts, () => registry.list()),
    register: (name, description, handler) => registry.register(name, description, handler),
    registerBuiltin: (command) => registry.register(command.name, command.description, command.handler, true),
    list: () => registry.list(),
    commandOf: (request) => {
      if (request.history !== undefined || (request.attachments?.length ?? 0) > 0) return undefined;
      const match = registry.match(request.prompt);
      if (match === null) return undefined;
      return async (signal) => String(await match.handler({ args: match.args, signal }));
    },
  };
}

function builtinCommands(ctx: FeatureContext, parts: SlashCommandParts, list: () => SlashCommandInfo[]): FeatureCommand[] {
  const { conversation, runs } = ctx;
  const llm = ctx.init.llm;
  return [
    { name: 'help', description: 'List the commands', handler: () => list().map((c) => `/${c.name} — ${c.description}`).join('\n') },
    { name: 'tools', description: 'List the tools the model can call', handler: () => ctx.registry.names().join('\n') },
    { name: 'model', description: 'Show the model of this session', handler: () => `${llm.provider}/${llm.model}` },
    {
      name: 'cost',
      description: 'Token usage of this session',
      handler: () => {
        const model = runs.runs().filter((r) => r.kind !== 'command');
        const sum = (pick: (r: RunRecord) => number): number => model.reduce((total, r) => total + pick(r), 0);
        return `${model.length} run(s): ${sum((r) => r.usage.promptTokens)} prompt + ${sum((r) => r.usage.completionTokens)} completion = ${sum((r) => r.usage.totalTokens)} tokens (cache read ${sum((r) => r.usage.cacheReadTokens)}, cache write ${sum((r) => r.usage.cacheWriteTokens)})`;
      },
    },
    {
      name: 'history',
      description: 'Summarise the conversation',
      handler: () => {
        const messages = conversation.messages();
        const lines = messages.slice(-10).map((m) => `${m.role}: ${m.content.map((p) => (p.type === 'text' ? p.text : `[${p.type}]`)).join(' ').slice(0, 120)}`);
        return `${messages.length} message(s)${messages.length > 10 ? ' (last 10)' : ''}\n${lines.join('\n')}`;
      },
    },
    {
      name: 'status',
      description: 'Session id, workspace, runs, plan and pending confirmations',
      handler: () => {
        const plan = parts.planning.items();
        return [
          `session ${ctx.sessionId}`,
          `workspace ${ctx.workspace.root}`,
          `model ${llm.provider}/${llm.model}`,
          `${runs.runs().length} run(s), ${conversation.length} message(s)`,
          plan.length === 0 ? 'no plan' : `plan ${plan.filter((p) => p.status === 'completed').length}/${plan.length} completed`,
          `${ctx.confirmation.pending().length} pending confirmation(s)`,
        ].join('\n');
      },
    },
    {
      name: 'clear',
      description: 'Start the conversation afresh (runs and artifacts are kept)',
      handler: () => {
        const count = conversation.length;
        conversation.replace([]);
        return `conversation cleared (${count} message(s) removed)`;
      },
    },
    {
      name: 'compact',
      description: 'Summarise the older part of the conversation now',
      handler: async ({ signal }) => {
        const compactor = parts.compactor() ?? new ContextCompactor({ llm: ctx.llm('compaction'), maxContextTokens: ctx.options.maxContextTokens, threshold: ctx.options.autoCompactThreshold });
        const before = conversation.length;
        const outcome = await compactor.compact(
          // The summary is model work of this session: it counts in the run and in the budget.
          { system: parts.system(), tools: parts.requestTools, conversation, emit: (event) => ctx.emit(event), signal, onUsage: (usage) => ctx.usage.record(usage) },
          'manual',
        );
        return outcome === 'compacted' ? `compacted: ${before} -> ${conversation.length} message(s)` : `not compacted (${outcome})`;
      },
    },
  ];
}
