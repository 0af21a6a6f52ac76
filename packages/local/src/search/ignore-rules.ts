import { compileGlobRule, ruleMatches } from '@a3s-lab/code-core/util';
import type { GlobRule } from '@a3s-lab/code-core/util';

/** Verdict of a rule set for one path. */
export type IgnoreVerdict = 'ignore' | 'whitelist' | null;

/** The rules of one `.gitignore` file, matched relative to its directory. */
export interface IgnoreFile {
  /** Workspace-relative directory the patterns are relative to (`.` = root). */
  readonly base: string;
  readonly rules: readonly GlobRule[];
}

/** Parses `.gitignore` text into an {@link IgnoreFile}. */
export function parseIgnoreFile(base: string, text: string): IgnoreFile {
  const rules: GlobRule[] = [];
  for (const line of text.split(/\r?\n/)) {
    const rule = compileGlobRule(line);
    if (rule !== null) rules.push(rule);
  }
  return { base, rules };
}

/** Verdict of one ignore file for a workspace-relative path (last matching line wins). */
export function ignoreFileVerdict(file: IgnoreFile, path: string, isDirectory: boolean): IgnoreVerdict {
  const relative = file.base === '.' ? path : path.startsWith(`${file.base}/`) ? path.slice(file.base.length + 1) : null;
  if (relative === null) return null;
  for (let index = file.rules.length - 1; index >= 0; index -= 1) {
    const rule = file.rules[index] as GlobRule;
    if (ruleMatches(rule, relative, isDirectory)) return rule.negated ? 'whitelist' : 'ignore';
  }
  return null;
}

/**
 * Override globs (ripgrep `--glob`): a plain glob includes, `!glob` excludes, the last matching
 * one wins; when any including glob exists, a FILE matching none is excluded (directories are
 * still walked). An override verdict beats every ignore file.
 */
export class OverrideGlobs {
  private readonly rules: GlobRule[];
  private readonly hasWhitelist: boolean;

  constructor(globs: readonly string[]) {
    this.rules = globs.map((glob) => compileGlobRule(glob)).filter((rule): rule is GlobRule => rule !== null);
    this.hasWhitelist = this.rules.some((rule) => !rule.negated);
  }

  /** Verdict for a workspace-relative path. */
  verdict(path: string, isDirectory: boolean): IgnoreVerdict {
    for (let index = this.rules.length - 1; index >= 0; index -= 1) {
      const rule = this.rules[index] as GlobRule;
      if (ruleMatches(rule, path, isDirectory)) return rule.negated ? 'ignore' : 'whitelist';
    }
    return this.hasWhitelist && !isDirectory ? 'ignore' : null;
  }
}
