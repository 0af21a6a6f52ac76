// Path deny rules apply to every file a search touches, not only the root argument: grep over a
// parent directory, with a glob, in any output mode, or ctx.grep inside a program must not return
// (or even name) a denied file.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InvocationKernel, ToolRegistry } from '@a3s-lab/code-core/kernel';
import { LocalWorkspaceBackend } from '@a3s-lab/code-local';
import { createBuiltinTools } from '@a3s-lab/code-tools';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProgramTool, toProgramArgs } from '../src/index.js';

const MARKER = 'SECRET_MARKER_5f3a';
let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'a3s-search-deny-'));
  await mkdir(join(root, 'config'), { recursive: true });
  await mkdir(join(root, 'secrets'), { recursive: true });
  await mkdir(join(root, 'src'), { recursive: true });
  await writeFile(join(root, '.env'), `TOKEN=${MARKER}\n`);
  await writeFile(join(root, 'config', '.env.local'), `TOKEN=${MARKER}\n`);
  await writeFile(join(root, 'secrets', 'key.txt'), `${MARKER}\n`);
  await writeFile(join(root, 'src', 'app.ts'), `// mentions TOKEN but not the marker\nexport const name = 'TOKEN';\n`);
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

function kernel(): InvocationKernel {
  return new InvocationKernel({
    sessionId: 'search-deny',
    registry: new ToolRegistry([...createBuiltinTools(), createProgramTool()]),
    workspace: new LocalWorkspaceBackend(root),
    emit: () => undefined,
    permissionPolicy: { allow: ['grep', 'glob', 'read', 'program'], deny: ['read(**/.env*)', 'grep(secrets/**)'], defaultDecision: 'ask' },
  });
}

const GREPS: Array<Record<string, unknown>> = [
  { pattern: 'TOKEN' },
  { pattern: 'TOKEN', path: '.' },
  { pattern: 'TOKEN', path: 'config' },
  { pattern: 'TOKEN', glob: '.env*' },
  { pattern: MARKER, output_mode: 'files_with_matches' },
  { pattern: MARKER, output_mode: 'count' },
  { pattern: MARKER, output_mode: 'summary' },
  { pattern: MARKER, context: 2 },
  { pattern: MARKER, '-i': true },
];

describe('deny rules apply to every file a search touches', () => {
  it.each(GREPS)('grep %j withholds denied files', async (args) => {
    const result = await kernel().invoke({ toolName: 'grep', args, origin: 'agent', toolId: 'g1' });
    expect(result.output).not.toContain(MARKER);
    expect(result.output).not.toContain('.env');
    expect(result.output).not.toContain('secrets/key.txt');
  });

  it('still returns the files that are not denied', async () => {
    const result = await kernel().invoke({ toolName: 'grep', args: { pattern: 'TOKEN' }, origin: 'agent', toolId: 'g2' });
    expect(result.output).toContain('src/app.ts');
    expect(result.output).toContain('withheld');
  });

  it('ctx.grep inside a program withholds them too', async () => {
    const result = await kernel().invoke({
      toolName: 'program',
      args: toProgramArgs({
        source: `export default async function run(ctx) {
          return { content: await ctx.grep('TOKEN'), files: await ctx.grep('${MARKER}', { output_mode: 'files_with_matches' }) };
        }`,
        allowedTools: ['grep'],
      }),
      origin: 'agent',
      toolId: 'p1',
    });
    expect(result.exitCode, result.output).toBe(0);
    expect(JSON.stringify(result)).not.toContain(MARKER);
    expect(JSON.stringify(result.metadata)).not.toContain('.env');
  });
});
