// A skill's data: what the skill tools read and the runtime's SkillLibrary holds.

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
