// Extracts the code blocks of the repository's READMEs, for readme-examples.test.ts.
//
// Every fenced block tagged ts / typescript / js / javascript / mjs is a program a user could
// paste into a file and run. Two HTML comments (invisible on GitHub and npm) adjust that:
//   <!-- readme-example: continues -->   on the line before a block: the block continues the
//                                         previous block of the same README (run as one program);
//   <!-- readme-example: prelude CODE --> on the line before a block: CODE (typically an import
//                                         the prose leaves out) is put in front of the block.
// ```hcl / ```acl blocks are agent configurations: they are loaded with Agent.create.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

const PROGRAM_LANGUAGES = new Set(['ts', 'typescript', 'js', 'javascript', 'mjs']);
const CONFIG_LANGUAGES = new Set(['hcl', 'acl']);

/** Every README of the published packages and the repository's own. */
export function readmeFiles() {
  const files = [join(root, 'README.md')];
  for (const group of ['packages', 'apps']) {
    for (const name of readdirSync(join(root, group)).sort()) {
      const file = join(root, group, name, 'README.md');
      if (existsSync(file)) files.push(file);
    }
  }
  return files;
}

/**
 * The runnable units of one README: `{ readme, line, kind: 'program' | 'config', language, code }`.
 * `line` is the 1-based line of the opening fence of the unit's first block.
 */
export function readmeUnits(readme) {
  const lines = readFileSync(readme, 'utf8').split('\n');
  const units = [];
  let directive = '';
  for (let i = 0; i < lines.length; i += 1) {
    const fence = /^```(\w*)\s*$/.exec(lines[i]);
    if (!fence) {
      const comment = /^<!--\s*readme-example:\s*(.*?)\s*-->\s*$/.exec(lines[i]);
      if (comment) directive = comment[1];
      else if (lines[i].trim() !== '') directive = '';
      continue;
    }
    const language = fence[1].toLowerCase();
    const start = i;
    const body = [];
    for (i += 1; i < lines.length && !/^```\s*$/.test(lines[i]); i += 1) body.push(lines[i]);
    let code = `${body.join('\n')}\n`;
    const kind = PROGRAM_LANGUAGES.has(language) ? 'program' : CONFIG_LANGUAGES.has(language) ? 'config' : undefined;
    if (kind === undefined) {
      directive = '';
      continue;
    }
    if (directive.startsWith('prelude ')) code = `${directive.slice('prelude '.length)}\n${code}`;
    const previous = units.at(-1);
    if (directive === 'continues' && previous?.kind === 'program' && kind === 'program') {
      previous.code += `\n// --- continued (README line ${start + 1}) ---\n${code}`;
    } else {
      units.push({ readme: relative(root, readme), line: start + 1, kind, language, code });
    }
    directive = '';
  }
  return units;
}
