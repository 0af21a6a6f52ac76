import { describe, expect, it } from 'vitest';
import { CodeError } from '../errors/code-error.js';
import { HostFailure } from '../errors/host-failure.js';
import { globToRegExp } from '../glob/glob-to-regexp.js';
import { MemoryWorkspaceBackend } from './memory-workspace-backend.js';

const text = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);

describe('MemoryWorkspaceBackend', () => {
  it('reads, writes and stats with canonical paths; missing things are null', async () => {
    const ws = new MemoryWorkspaceBackend({ files: { 'a/b.txt': 'hello' } });
    const file = await ws.readFile({ path: './a//b.txt' });
    expect(file?.path).toBe('a/b.txt');
    expect(text(file?.content ?? new Uint8Array())).toBe('hello');
    expect(await ws.readFile({ path: 'missing.txt' })).toBeNull();
    expect(await ws.stat({ path: 'nope' })).toBeNull();
    expect((await ws.stat({ path: 'a' }))?.type).toBe('directory');
    expect(await ws.resolvePath({ path: '/memory/a/../a/b.txt' })).toBe('a/b.txt');
    expect(await ws.resolvePath({ path: '' })).toBe('.');
    const written = await ws.writeFile({ path: 'new/deep/file.txt', content: 'x' });
    expect(written.path).toBe('new/deep/file.txt');
    expect((await ws.stat({ path: 'new/deep' }))?.type).toBe('directory');
  });

  it('refuses paths that lead out of the root with SECURITY_ERROR', async () => {
    const ws = new MemoryWorkspaceBackend();
    for (const path of ['../x', 'a/../../x', '/etc/passwd', 'a\0b']) {
      await expect(ws.readFile({ path })).rejects.toSatisfy((error: unknown) => CodeError.hasCode(error, 'SECURITY_ERROR'));
      await expect(ws.writeFile({ path, content: 'x' })).rejects.toSatisfy((error: unknown) => CodeError.hasCode(error, 'SECURITY_ERROR'));
    }
  });

  it('makes conditional writes fail with a Conflict HostFailure', async () => {
    const ws = new MemoryWorkspaceBackend({ files: { 'f.txt': 'one' } });
    const file = await ws.readFile({ path: 'f.txt' });
    await ws.writeFile({ path: 'f.txt', content: 'two' });
    const failure = await ws.writeFile({ path: 'f.txt', content: 'three', expectedVersion: file?.version ?? '' }).catch((error: unknown) => error);
    expect(HostFailure.isHostFailure(failure) && failure.reason).toBe('Conflict');
    await expect(ws.writeFile({ path: 'f.txt', content: 'x', expectedVersion: null })).rejects.toSatisfy((error: unknown) => HostFailure.isHostFailure(error));
    await ws.writeFile({ path: 'g.txt', content: 'x', expectedVersion: null });
    expect(text((await ws.readFile({ path: 'f.txt' }))?.content ?? new Uint8Array())).toBe('two');
  });

  it('lists directories with pages and returns null for a missing one', async () => {
    const ws = new MemoryWorkspaceBackend({ files: { 'b.txt': '1', 'a/x.txt': '2', 'c.txt': '3' } });
    const first = await ws.list({ path: '.', limit: 2 });
    expect(first?.items.map((e) => `${e.name}:${e.type}`)).toEqual(['a:directory', 'b.txt:file']);
    const second = await ws.list({ path: '.', limit: 2, cursor: first?.nextCursor ?? '' });
    expect(second?.items.map((e) => e.name)).toEqual(['c.txt']);
    expect(second?.nextCursor).toBeNull();
    expect(await ws.list({ path: 'zzz', limit: 10 })).toBeNull();
  });

  it('globs with ** and sorts by path on request', async () => {
    const ws = new MemoryWorkspaceBackend({ files: { 'src/a.ts': '', 'src/deep/b.ts': '', 'c.ts': '', 'd.js': '' } });
    const page = await ws.glob({ pattern: '**/*.ts', limit: 10, sort: 'path' });
    expect(page.items).toEqual(['c.ts', 'src/a.ts', 'src/deep/b.ts']);
    const under = await ws.glob({ pattern: '*.ts', path: 'src', limit: 10, sort: 'path' });
    expect(under.items).toEqual(['src/a.ts']);
  });

  it('searches with context, modes and an invalid-regex error', async () => {
    const ws = new MemoryWorkspaceBackend({ files: { 'a.txt': 'one\nTwo\nthree\n', 'b.md': 'two two\n', 'bin.dat': new Uint8Array([0, 116, 119, 111]) } });
    const content = await ws.search({ pattern: 'two', caseInsensitive: true, outputMode: 'content', context: 1, limit: 100 });
    expect(content.lines?.map((l) => `${l.path}:${l.line}:${l.match}`)).toEqual(['a.txt:1:false', 'a.txt:2:true', 'a.txt:3:false', 'b.md:1:true']);
    const counts = await ws.search({ pattern: 'two', outputMode: 'count', glob: '*.md', limit: 10 });
    expect(counts.files).toEqual([{ path: 'b.md', count: 1 }]);
    await expect(ws.search({ pattern: '(', outputMode: 'content', limit: 10 })).rejects.toSatisfy((error: unknown) => CodeError.hasCode(error, 'TOOL_ERROR'));
  });

  it('compiles globs with braces and classes', () => {
    expect(globToRegExp('*.{ts,js}').test('a.js')).toBe(true);
    expect(globToRegExp('*.{ts,js}').test('a/b.js')).toBe(false);
    expect(globToRegExp('file[0-9].txt').test('file7.txt')).toBe(true);
  });
});
