import { CodeError } from '../errors/code-error.js';

/** A skill: instructions the model can invoke (`Skill`) or a persona always in the prompt. */
export interface SkillDefinition {
  readonly name: string;
  readonly description: string;
  /** `instruction` (run on demand by the `Skill` tool) or `persona` (always part of the system prompt). */
  readonly kind: 'instruction' | 'persona';
  /** Tools the skill's run may call; empty = none (a skill without `allowed-tools` grants nothing). */
  readonly allowedTools: readonly string[];
  readonly tags: readonly string[];
  readonly body: string;
  /** Where it came from (a file path, `inline`). */
  readonly source: string;
}

/** A search hit of {@link SkillLibrary.search}. */
export interface SkillMatch {
  readonly name: string;
  readonly description: string;
  readonly tags: readonly string[];
  readonly kind: SkillDefinition['kind'];
  readonly score: number;
}

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
