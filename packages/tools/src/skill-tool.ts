import { CodeError, defineTool } from '@a3s-lab/code-core';
import { isSkillService } from '@a3s-lab/code-core/kernel';
import type { FromJsonSchema, Tool, ToolContext, ToolParametersSchema } from '@a3s-lab/code-core';
import type { SkillService } from '@a3s-lab/code-core/kernel';
import { renderTaskResult, taskSummary } from './task-render.js';
import { invalidArgument, readOnlyCapabilities } from './tool-support.js';

function skillsOf(context: ToolContext): SkillService {
  const service = context.services['skills'];
  if (!isSkillService(service)) throw new CodeError('TOOL_ERROR', 'skills are not available in this session', { details: { errorKind: { type: 'unsupported', message: 'no skills' } } });
  return service;
}

/** The JSON Schema of `Skill`'s arguments: what the model sees and the kernel validates. */
const SKILL_PARAMETERS = {
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: { name: { type: 'string', pattern: '^[a-zA-Z0-9_-]{1,64}$' }, prompt: { type: 'string', maxLength: 65_536, description: 'What to apply the skill to.' } },
} as const satisfies ToolParametersSchema;

/** Arguments of `Skill`, read from its schema. */
type SkillArgs = FromJsonSchema<typeof SKILL_PARAMETERS>;

/**
 * `Skill`: runs an instruction skill as a child run with the skill's instructions, restricted by
 * the kernel's active-skill stage to the skill's `allowed-tools` (none when the skill names none).
 */
export function createSkillTool(): Tool<SkillArgs> {
  return defineTool({
    name: 'Skill',
    description: 'Run a project skill (see search_skills) on a task; returns its answer.',
    parameters: SKILL_PARAMETERS,
    async execute(args, context) {
      const skills = skillsOf(context);
      if (skills.get(args.name) === undefined) return invalidArgument(`unknown skill '${args.name}'; find skills with search_skills`);
      const result = await skills.run(args.name, args.prompt ?? `Apply the skill '${args.name}'.`, { signal: context.abortSignal, parentToolId: context.toolId });
      const output = renderTaskResult(result);
      if (result.status === 'completed') return { output, metadata: { skill: args.name, task: taskSummary(result) } };
      return { output, exitCode: 1, metadata: { skill: args.name, task: taskSummary(result) }, errorKind: result.status === 'cancelled' ? { type: 'cancelled', op: 'Skill' } : { type: 'partial_failure', failed: [0], total: 1 } };
    },
  });
}

/** The JSON Schema of `search_skills`'s arguments: what the model sees and the kernel validates. */
const SEARCH_SKILLS_PARAMETERS = {
  type: 'object',
  additionalProperties: false,
  required: ['query'],
  properties: { query: { type: 'string', maxLength: 500 }, limit: { type: 'integer', minimum: 1, maximum: 50 } },
} as const satisfies ToolParametersSchema;

/** Arguments of `search_skills`, read from its schema. */
type SearchSkillsArgs = FromJsonSchema<typeof SEARCH_SKILLS_PARAMETERS>;

/** `search_skills`: finds instruction skills by name, tags and description. */
export function createSearchSkillsTool(): Tool<SearchSkillsArgs> {
  return defineTool({
    name: 'search_skills',
    description: 'Find project skills by keywords (empty query lists them).',
    parameters: SEARCH_SKILLS_PARAMETERS,
    capabilities: () => readOnlyCapabilities({ outputKind: 'structured' }),
    async execute(args, context) {
      const matches = skillsOf(context).search(args.query, args.limit ?? 10);
      const output = matches.length === 0 ? `No skill matches "${args.query}".` : matches.map((m) => `${m.name}: ${m.description}${m.tags.length === 0 ? '' : ` [${m.tags.join(', ')}]`}`).join('\n');
      return { output, metadata: { skills: matches } };
    },
  });
}
