import type { SubagentTaskResult } from '../subagents/subagent-service.js';
import type { SkillDefinition, SkillMatch } from './skill-definition.js';

/** What `Skill` and `search_skills` call (`context.services.skills`). */
export interface SkillService {
  search(query: string, limit: number): SkillMatch[];
  get(name: string): SkillDefinition | undefined;
  /** Runs an instruction skill as a child run restricted to its allowed tools. */
  run(name: string, prompt: string, options: { readonly signal: AbortSignal; readonly parentToolId?: string }): Promise<SubagentTaskResult>;
}

/** True when `value` is a {@link SkillService}. */
export function isSkillService(value: unknown): value is SkillService {
  return typeof value === 'object' && value !== null && typeof (value as Record<string, unknown>)['search'] === 'function' && typeof (value as Record<string, unknown>)['run'] === 'function';
}
