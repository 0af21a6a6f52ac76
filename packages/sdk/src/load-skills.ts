import { lstatSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { join, sep } from 'node:path';
import { CodeError } from '@a3s-lab/code-core';
import type { InlineSkill, SkillDefinition } from '@a3s-lab/code-core';
import { parseFrontmatter, parseSkill } from '@a3s-lab/code-config';
import type { AgentDirectory } from '@a3s-lab/code-config';

/** A skill file a skill directory holds but that was not loaded, and why. */
export interface SkippedSkill {
  /** Always `skill_skipped`. */
  readonly kind: 'skill_skipped';
  /** The file as found in the directory (not its link target). */
  readonly path: string;
  /** e.g. `its real path leaves the skill directory (/etc/passwd.md)`. */
  readonly reason: string;
  /** `skill <path> skipped: <reason>`. */
  readonly message: string;
}

/**
 * The Markdown skills (`*.md`, frontmatter `name`, `description`, `allowed-tools`, `tags`) of
 * `dirs`. A skill file whose real path leaves its directory's real path (a symlink out), a broken
 * link and anything but a regular file are skipped and reported to `onSkipped`, never read. (A
 * configured directory that is itself a link is resolved first: its target is the root.)
 */
export function loadSkillDirs(dirs: readonly string[], onSkipped: (skipped: SkippedSkill) => void = () => undefined): SkillDefinition[] {
  return dirs.flatMap((dir) => {
    let names: string[];
    let root: string;
    try {
      root = realpathSync(dir);
      names = readdirSync(root).filter((n) => n.endsWith('.md') && !n.startsWith('.')).sort();
    } catch (error) {
      throw new CodeError('SESSION_CONFIGURATION_ERROR', `skill directory not readable: ${dir}`, { details: { field: 'skillDirs', dir }, cause: error });
    }
    return names.flatMap((name) => {
      const file = join(dir, name);
      const why = refusal(root, join(root, name));
      if (why !== null) {
        onSkipped({ kind: 'skill_skipped', path: file, reason: why, message: `skill ${file} skipped: ${why}` });
        return [];
      }
      const { data, body } = parseFrontmatter(readFileSync(join(root, name), 'utf8'), file);
      return [toDefinition(parseSkill(data, body, file))];
    });
  });
}

/** Why the skill file `path` (inside the real directory `root`) must not be read, or `null`. */
function refusal(root: string, path: string): string | null {
  let real: string;
  try {
    real = realpathSync(path);
  } catch {
    return 'it is a broken link';
  }
  if (real !== root && !real.startsWith(root + sep)) return `its real path leaves the skill directory (${real})`;
  if (!lstatSync(real).isFile()) return 'it is not a regular file';
  return null;
}

/** The skills of an agent directory's `skills/`, as `inlineSkills` (so they persist with the session's options). */
export function directorySkills(directory: AgentDirectory): InlineSkill[] {
  return directory.skills.map((s) => ({ name: s.name, description: s.description, content: s.body, kind: 'instruction' as const, allowedTools: [...s.allowedTools], tags: [...s.tags] }));
}

function toDefinition(skill: AgentDirectory['skills'][number]): SkillDefinition {
  return { name: skill.name, description: skill.description, kind: 'instruction', allowedTools: skill.allowedTools, tags: skill.tags, body: skill.body, source: skill.file };
}
