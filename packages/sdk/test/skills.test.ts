// Skills through the public SDK: inline and directory skills, search_skills, Skill runs as a
// child restricted to its allowed tools (none without allowed-tools), personas in the prompt.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { systemPromptOf, textResponse, toolCallResponse, toolNamesOf, toolResultsOf } from '@a3s-lab/code-testing';
import type { RecordedRequest, ScriptedResponse } from '@a3s-lab/code-testing';
import { startHarness } from './harness.js';
import type { Harness } from './harness.js';

type Json = Record<string, unknown>;
const firstUser = (r: RecordedRequest): string => {
  const user = (((r.body as Json)['messages'] as Json[]) ?? []).find((m) => m['role'] === 'user');
  const content = user?.['content'];
  return typeof content === 'string' ? content : Array.isArray(content) ? content.map((c: Json) => c['text'] ?? '').join('') : '';
};
const step = (r: RecordedRequest): number => (((r.body as Json)['messages'] as Json[]) ?? []).filter((m) => m['role'] === 'assistant').length;

let h: Harness | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('skills', () => {
  it('a skill without allowed-tools cannot call any tool; one with allowed-tools gets exactly those', async () => {
    h = await startHarness('anthropic', (r): ScriptedResponse => {
      const prompt = firstUser(r);
      if (prompt === 'Use the skills') {
        return [toolCallResponse('search_skills', { query: 'style' }), toolCallResponse('Skill', { name: 'no-tools', prompt: 'read a.txt' }), toolCallResponse('Skill', { name: 'reader', prompt: 'read a.txt' }), textResponse('skills used')][step(r)] as ScriptedResponse;
      }
      // Both skill children try to read the file.
      return step(r) === 0 ? toolCallResponse('read', { file_path: 'a.txt' }) : textResponse(`child saw: ${toolResultsOf(r)[0]?.content.slice(0, 60)}`);
    }, { 'a.txt': 'secret sauce\n' });
    const session = await h.agent.sessionAsync(h.dir, {
      inlineSkills: [
        { name: 'no-tools', description: 'Style advice without tools', content: 'Answer from memory.', tags: ['style'] },
        { name: 'reader', description: 'Reads files for style review', content: 'Read, then advise.', allowedTools: ['read'], tags: ['style', 'review'] },
        { name: 'pirate', description: 'Talk like a pirate', content: 'Always answer like a pirate.', kind: 'persona' },
      ],
    });
    expect(session.toolNames()).toEqual(expect.arrayContaining(['Skill', 'search_skills']));
    expect((await session.send('Use the skills')).text).toBe('skills used');
    const parent = h.server.requests.filter((r) => firstUser(r) === 'Use the skills');
    expect(systemPromptOf(parent[0]!)).toContain('Always answer like a pirate.');
    expect(toolResultsOf(parent[1]!)[0]?.content).toMatch(/^no-tools: Style advice without tools \[style\]\nreader: Reads files/);
    const children = h.server.requests.filter((r) => firstUser(r) === 'read a.txt');
    const noTools = children.filter((r) => systemPromptOf(r).includes("skill 'no-tools'"));
    const reader = children.filter((r) => systemPromptOf(r).includes("skill 'reader'"));
    expect(toolNamesOf(noTools[0]!)).toEqual([]);
    expect(toolResultsOf(noTools[1]!)[0]?.content).not.toContain('secret sauce');
    expect(toolNamesOf(reader[0]!)).toEqual(['read']);
    expect(toolResultsOf(reader[1]!)[0]?.content).toContain('secret sauce');
    expect(toolResultsOf(parent[3]!).at(-1)?.content).toContain('child saw: ');
    expect(toolResultsOf(parent[2]!).at(-1)?.content).toMatch(/\[skill:no-tools task_/);
  });

  it('skillDirs load Markdown skills; a session without instruction skills offers neither Skill nor search_skills', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'a3s-skills-'));
    dirs.push(dir);
    writeFileSync(join(dir, 'changelog.md'), '---\nname: changelog\ndescription: Write changelog entries\nallowed-tools: read, git\ntags: [release]\n---\nOne line per change, imperative mood.\n');
    h = await startHarness('openai', []);
    const withDir = await h.agent.sessionAsync(h.dir, { skillDirs: [dir] });
    expect(withDir.skills().map((s) => [s.name, s.allowedTools])).toEqual([['changelog', ['read', 'git']]]);
    expect(withDir.toolNames()).toContain('Skill');
    const plain = await h.agent.sessionAsync(h.dir);
    expect(plain.toolNames()).not.toContain('Skill');
    expect(plain.toolNames()).not.toContain('search_skills');
    await expect(h.agent.sessionAsync(h.dir, { skillDirs: [join(dir, 'missing')] })).rejects.toMatchObject({ code: 'SESSION_CONFIGURATION_ERROR' });
    await expect(h.agent.sessionAsync(h.dir, { inlineSkills: [{ name: 'bad name!', description: 'x', content: 'y' }] })).rejects.toMatchObject({ code: 'SESSION_CONFIGURATION_ERROR' });
  });
});
