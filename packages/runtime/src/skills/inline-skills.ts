import type { InlineSkill, SkillDefinition } from '@a3s-lab/code-core';

/** Skills of the `inlineSkills` option. */
export function inlineSkills(skills: readonly InlineSkill[]): SkillDefinition[] {
  return skills.map((s) => ({ name: s.name, description: s.description, kind: s.kind ?? 'instruction', allowedTools: [...(s.allowedTools ?? [])], tags: [...(s.tags ?? [])], body: s.content, source: 'inline' }));
}
