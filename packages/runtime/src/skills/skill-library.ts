import { CodeError } from '@a3s-lab/code-core';
import type { SkillDefinition } from '@a3s-lab/code-core';
import type { SkillMatch } from '@a3s-lab/code-core/kernel';

const NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** The skills of a session, by name (later sources replace earlier ones of the same name). */
export class SkillLibrary {
  readonly #skills = new Map<string, SkillDefinition>();

  constructor(skills: readonly SkillDefinition[] = []) {
    for (const skill of skills) this.add(skill);
  }

  add(skill: SkillDefinition): void {
    if (!NAME.test(skill.name)) throw new CodeError('SESSION_CONFIGURATION_ERROR', `skill name must match ${NAME}: ${JSON.stringify(skill.name)}`, { details: { field: 'skills', source: skill.source } });
    this.#skills.set(skill.name, skill);
  }

  get(name: string): SkillDefinition | undefined {
    return this.#skills.get(name);
  }

  list(): SkillDefinition[] {
    return [...this.#skills.values()];
  }

  get size(): number {
    return this.#skills.size;
  }

  /**
   * Instruction skills ranked for `query`: every query word found in the name (3 points), a tag
   * (2) or the description (1); ties by name. An empty query lists them all.
   */
  search(query: string, limit = 10): SkillMatch[] {
    const words = query.toLowerCase().split(/[^a-z0-9_-]+/).filter(Boolean);
    const scored = this.list()
      .filter((s) => s.kind === 'instruction')
      .map((s) => {
        const name = s.name.toLowerCase();
        const description = s.description.toLowerCase();
        const tags = s.tags.map((t) => t.toLowerCase());
        const score = words.reduce((sum, w) => sum + (name.includes(w) ? 3 : 0) + (tags.some((t) => t.includes(w)) ? 2 : 0) + (description.includes(w) ? 1 : 0), 0);
        return { name: s.name, description: s.description, tags: s.tags, kind: s.kind, score };
      })
      .filter((m) => words.length === 0 || m.score > 0)
      .sort((a, b) => b.score - a.score || a.name.localeCompare(b.name));
    return scored.slice(0, Math.max(1, limit));
  }

  /** The persona skills as a system-prompt section (`''` without any). */
  personaSection(): string {
    const personas = this.list().filter((s) => s.kind === 'persona');
    if (personas.length === 0) return '';
    return `# Persona\n${personas.map((p) => p.body.trim()).join('\n\n')}`;
  }
}
