import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CodeError } from '@a3s-lab/code-core';
import type { InlineSkill, SkillDefinition } from '@a3s-lab/code-core';
import { parseFrontmatter, parseSkill } from '@a3s-lab/code-config';
import type { AgentDirectory } from '@a3s-lab/code-config';

/** The Markdown skills (`*.md`, frontmatter `name`, `description`, `allowed-tools`, `tags`) of `dirs`. */
export function loadSkillDirs(dirs: readonly string[]): SkillDefinition[] {
  return dirs.flatMap((dir) => {
    let names: string[];
    try {
      names = readdirSync(dir).filter((n) => n.endsWith('.md') && !n.startsWith('.')).sort();
    } catch (error) {
      throw new CodeError('SESSION_CONFIGURATION_ERROR', `skill directory not readable: ${dir}`, { details: { field: 'skillDirs', dir }, cause: error });
    }
    return names.map((name) => {
      const file = join(dir, name);
      const { data, body } = parseFrontmatter(readFileSync(file, 'utf8'), file);
      return toDefinition(parseSkill(data, body, file));
    });
  });
}

/** The skills of an agent directory's `skills/`, as `inlineSkills` (so they persist with the session's options). */
export function directorySkills(directory: AgentDirectory): InlineSkill[] {
  return directory.skills.map((s) => ({ name: s.name, description: s.description, content: s.body, kind: 'instruction' as const, allowedTools: [...s.allowedTools], tags: [...s.tags] }));
}

function toDefinition(skill: AgentDirectory['skills'][number]): SkillDefinition {
  return { name: skill.name, description: skill.description, kind: 'instruction', allowedTools: skill.allowedTools, tags: skill.tags, body: skill.body, source: skill.file };
}
