import { CodeError } from '@a3s-lab/code-core';
import { inlineSkills } from '../../skills/inline-skills.js';
import { SkillLibrary } from '../../skills/skill-library.js';
import type { SkillDefinition, SubagentDefinition } from '@a3s-lab/code-core';
import type { SkillService } from '@a3s-lab/code-core/kernel';
import type { SessionFeature } from '../session-feature.js';
import type { FeatureContext } from './feature-context.js';
import type { SubagentsFeature } from './subagents-feature.js';

/** Skills: personas in the prompt; instruction skills through `Skill` / `search_skills`, each run as a child. */
export interface SkillsFeature extends SessionFeature {
  /** Skills of this session (instruction and persona). */
  list(): SkillDefinition[];
}

/** Steps a skill's child run may take. */
const SKILL_MAX_STEPS = 16;

export function skillsFeature(ctx: FeatureContext, subagents: SubagentsFeature): SkillsFeature {
  const library = new SkillLibrary([...(ctx.init.skills ?? []), ...inlineSkills(ctx.options.inlineSkills ?? [])]);
  // Instruction skills run as children: without a subagent factory there is nothing to run them on.
  const offered = library.list().some((s) => s.kind === 'instruction') && subagents.available;
  const service: SkillService = {
    search: (query, limit) => library.search(query, limit),
    get: (name) => library.get(name),
    run: (name, prompt, options) => {
      const skill = library.get(name);
      if (skill === undefined || skill.kind !== 'instruction') {
        const known = library.list().filter((s) => s.kind === 'instruction').map((s) => s.name).join(', ');
        throw new CodeError('SESSION_ERROR', `unknown skill '${name}'${library.size === 0 ? '' : `; skills: ${known}`}`, { details: { field: 'name', skill: name } });
      }
      const definition: SubagentDefinition = {
        name: `skill:${skill.name}`,
        description: skill.description,
        kind: 'custom',
        prompt: `You are running the skill '${skill.name}': ${skill.description}\n\n${skill.body}`,
        tools: skill.allowedTools,
        maxSteps: SKILL_MAX_STEPS,
        confirmationInheritance: 'inherit_parent',
        builtin: false,
      };
      return subagents.runAs(definition, { agent: definition.name, description: `skill ${skill.name}`, prompt }, options, skill.allowedTools);
    },
  };
  return {
    name: 'skills',
    ...(offered ? {} : { withdrawnTools: ['Skill', 'search_skills'] }),
    // A skill runs as a child run that journals its own steps under the call's id.
    selfJournalingTools: ['Skill'],
    services: { skills: service },
    promptSection: () => {
      const persona = library.personaSection();
      const note = ctx.registry.has('Skill') ? '# Skills\nInstruction skills exist for this project: find them with search_skills and run one with Skill.' : '';
      return [persona, note].filter((part) => part !== '').join('\n\n');
    },
    list: () => library.list(),
  };
}
