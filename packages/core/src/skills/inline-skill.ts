/** An inline skill of the `inlineSkills` session option. */
export interface InlineSkill {
  readonly name: string;
  readonly description: string;
  /** The skill's instructions (or the persona's text). */
  readonly content: string;
  /** Default `instruction`. */
  readonly kind?: 'instruction' | 'persona';
  /** Tools its run may call; default none. */
  readonly allowedTools?: readonly string[];
  readonly tags?: readonly string[];
}
