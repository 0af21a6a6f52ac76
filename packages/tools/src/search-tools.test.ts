import { MemoryWorkspaceBackend } from '@a3s-lab/code-core/testing';
import { describe, expect, it } from 'vitest';
import { run } from '../test/tool-context.js';
import { createGlobTool } from './glob-tool.js';
import { createGrepTool } from './grep-tool.js';
import { createLsTool } from './ls-tool.js';

const ls = createLsTool();
const glob = createGlobTool();
const grep = createGrepTool();

describe('ls', () => {
  const files: Record<string, string> = { 'src/a.ts': '', 'README.md': '' };
  for (let i = 0; i < 7; i += 1) files[`many/f${i}.txt`] = String(i);

  it('marks directories and pages with cursor or offset', async () => {
    const ws = new MemoryWorkspaceBackend({ files });
    const root = await run(ls, ws, {});
    expect(root.output).toBe('README.md\nmany/\nsrc/');
    const first = await run(ls, ws, { path: 'many', limit: 3 });
    expect(first.output).toBe('f0.txt\nf1.txt\nf2.txt\n... more entries; call ls with path="many" and cursor="3"');
    expect(first.metadata).toMatchObject({ count: 3, next_cursor: '3', truncated: true });
    const second = await run(ls, ws, { path: 'many', limit: 3, cursor: '3' });
    expect(second.output.split('\n').slice(0, 3)).toEqual(['f3.txt', 'f4.txt', 'f5.txt']);
    const byOffset = await run(ls, ws, { path: 'many', limit: 10, offset: 5 });
    expect(byOffset.output).toBe('f5.txt\nf6.txt');
    expect(byOffset.metadata).toMatchObject({ next_cursor: null, truncated: false });
  });

  it('reports a missing directory, a file target and cursor+offset as typed errors', async () => {
    const ws = new MemoryWorkspaceBackend({ files });
    expect((await run(ls, ws, { path: 'nope' })).errorKind).toEqual({ type: 'not_found', path: 'nope' });
    expect((await run(ls, ws, { path: 'README.md' })).errorKind?.type).toBe('invalid_argument');
    expect((await run(ls, ws, { path: 'many', cursor: '1', offset: 1 })).errorKind?.type).toBe('invalid_argument');
    await expect(run(ls, ws, { path: '../' })).rejects.toMatchObject({ code: 'SECURITY_ERROR' });
  });
});

describe('glob', () => {
  it('lists matches one per line with stable path pages', async () => {
    const ws = new MemoryWorkspaceBackend({ files: { 'b.ts': '', 'a.ts': '', 'src/c.ts': '', 'x.js': '' } });
    const first = await run(glob, ws, { pattern: '**/*.ts', sort: 'path', limit: 2 });
    expect(first.output).toBe('a.ts\nb.ts\n... more files; call glob again with cursor="2"');
    expect(first.metadata).toEqual({ count: 2, next_cursor: '2', truncated: true });
    const second = await run(glob, ws, { pattern: '**/*.ts', sort: 'path', limit: 2, cursor: '2' });
    expect(second.output).toBe('src/c.ts');
    expect((await run(glob, ws, { pattern: '*.py' })).output).toBe('No files match *.py');
  });
});

describe('grep', () => {
  const ws = new MemoryWorkspaceBackend({
    files: { 'a.ts': 'import x\nconst Foo = 1;\nfoo()\nbar\n', 'b.md': 'no match\nfoo here\n', 'c/d.ts': 'FOO\n' },
  });

  it('renders content with path:line:text and context lines with dashes', async () => {
    const result = await run(grep, ws, { pattern: 'foo', context: 1 });
    expect(result.output).toBe(['a.ts-2-const Foo = 1;', 'a.ts:3:foo()', 'a.ts-4-bar', '--', 'b.md-1-no match', 'b.md:2:foo here'].join('\n'));
    expect(result.metadata).toEqual({ mode: 'content', total_matches: 2, total_files: 2, next_cursor: null, search: { truncated: false, warnings: [] } });
  });

  it('supports -i, glob, and the non-content modes', async () => {
    const files = await run(grep, ws, { pattern: 'foo', '-i': true, output_mode: 'files_with_matches' });
    expect(files.output).toBe('a.ts\nb.md\nc/d.ts');
    const counts = await run(grep, ws, { pattern: 'foo', '-i': true, output_mode: 'count', glob: '*.ts' });
    expect(counts.output).toBe('a.ts:2\nc/d.ts:1');
    const summary = await run(grep, ws, { pattern: 'foo', '-i': true, output_mode: 'summary' });
    expect(summary.output.split('\n')[0]).toBe('4 match(es) in 3 file(s)');
    expect(summary.metadata).toMatchObject({ mode: 'summary', total_matches: 4, total_files: 3 });
  });

  it('paginates with a cursor and rejects an invalid regex clearly', async () => {
    const first = await run(grep, ws, { pattern: 'o', limit: 2 });
    const next = (first.metadata as { next_cursor: string }).next_cursor;
    expect(first.output).toContain(`cursor="${next}"`);
    const second = await run(grep, ws, { pattern: 'o', limit: 2, cursor: next });
    expect(second.output.split('\n')[0]).not.toBe(first.output.split('\n')[0]);
    const bad = await run(grep, ws, { pattern: 'a(b' });
    expect(bad.errorKind?.type).toBe('invalid_argument');
    expect(bad.output).toMatch(/^invalid regular expression "a\(b": /);
  });
});
