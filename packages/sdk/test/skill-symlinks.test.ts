// Skill directories do not follow links out of themselves (issue 35, item 5): a skill file whose
// real path leaves the skill directory (or that is not a regular file) is skipped, never read, and
// reported to the host through `onWarning`.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startScriptedModelServer } from '@a3s-lab/code-testing';
import { Agent } from '../src/index.js';
import type { AgentWarning } from '../src/index.js';
import { aclFor } from './harness.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const skill = (name: string, body: string): string => `---\nname: ${name}\ndescription: ${name} skill\n---\n${body}\n`;

describe('skill directories and symlinks', () => {
  it('skips (and reports) a skill file linking outside the directory, a link to a directory and a broken link; loads the rest', async () => {
    const root = mkdtempSync(join(tmpdir(), 'a3s-skill-links-'));
    cleanups.push(() => rmSync(root, { recursive: true, force: true }));
    const outside = join(root, 'outside');
    const skills = join(root, 'skills');
    mkdirSync(outside);
    mkdirSync(skills);
    writeFileSync(join(outside, 'stolen.md'), skill('stolen', 'SECRET FROM OUTSIDE'));
    mkdirSync(join(outside, 'dir.md'));
    writeFileSync(join(skills, 'good.md'), skill('good', 'Do good things.'));
    writeFileSync(join(skills, 'real-target.md.txt'), skill('inner', 'Linked within the directory.'));
    symlinkSync(join(outside, 'stolen.md'), join(skills, 'escape.md'));
    symlinkSync(join(outside, 'dir.md'), join(skills, 'folder.md'));
    symlinkSync(join(root, 'nowhere.md'), join(skills, 'broken.md'));
    symlinkSync(join(skills, 'real-target.md.txt'), join(skills, 'inner.md'));
    // The configured directory may itself be a link: its target is the root.
    symlinkSync(skills, join(root, 'skills-link'));

    const server = await startScriptedModelServer({ scenario: [] });
    cleanups.push(() => server.close());
    const warnings: AgentWarning[] = [];
    const agent = await Agent.create(aclFor(server, 'anthropic'), { onWarning: (w) => warnings.push(w) });
    cleanups.push(() => agent.close());
    const session = await agent.sessionAsync(root, { skillDirs: [join(root, 'skills-link')] });
    expect(session.skills().map((s) => s.name).sort()).toEqual(['good', 'inner']);
    expect(JSON.stringify(session.skills())).not.toContain('SECRET FROM OUTSIDE');
    expect(warnings.flatMap((w) => (w.kind === 'skill_skipped' ? [[w.kind, w.path.split('/').at(-1), w.reason.replace(/\(.*\)/, '(...)')]] : [])).sort()).toEqual([
      ['skill_skipped', 'broken.md', 'it is a broken link'],
      ['skill_skipped', 'escape.md', 'its real path leaves the skill directory (...)'],
      ['skill_skipped', 'folder.md', 'its real path leaves the skill directory (...)'],
    ]);
    expect(warnings[0]?.message).toMatch(/^skill .* skipped: /);
  });
});
