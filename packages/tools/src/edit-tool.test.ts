import type { WorkspaceBackend } from '@a3s-lab/code-core';
import { MemoryWorkspaceBackend } from '@a3s-lab/code-core/testing';
import { describe, expect, it } from 'vitest';
import { fileText, run } from '../test/tool-context.js';
import { MAX_INLINE_DIFF_BYTES } from './change-metadata.js';
import { createEditTool } from './edit-tool.js';
import { sha256HexSync } from './sha256.js';
import { createWriteTool } from './write-tool.js';

const edit = createEditTool();
const write = createWriteTool();

describe('write', () => {
  it('creates files with parents and reports created/bytes', async () => {
    const ws = new MemoryWorkspaceBackend();
    const created = await run(write, ws, { file_path: 'deep/dir/a.txt', content: 'héllo' });
    expect(created.metadata).toMatchObject({ path: 'deep/dir/a.txt', bytes: 6, created: true });
    const replaced = await run(write, ws, { file_path: 'deep/dir/a.txt', content: 'x' });
    expect(replaced.metadata).toMatchObject({ bytes: 1, created: false });
    expect(await fileText(ws, 'deep/dir/a.txt')).toBe('x');
  });

  it('replacing a file reports the change like edit: diff, counts, hashes and sizes; the whole text for a small file', async () => {
    const ws = new MemoryWorkspaceBackend({ files: { 'a.ts': 'const a = 1;\nconst b = 2;\n' } });
    const result = await run(write, ws, { file_path: 'a.ts', content: 'const a = 1;\nconst b = 3;\n' });
    expect(result.output).toBe('Wrote a.ts (26 bytes; +1 -1)');
    const metadata = result.metadata as Record<string, unknown>;
    expect(metadata).toMatchObject({ path: 'a.ts', bytes: 26, created: false, additions: 1, deletions: 1, before_bytes: 26, after_bytes: 26, large: false, before: 'const a = 1;\nconst b = 2;\n', after: 'const a = 1;\nconst b = 3;\n' });
    expect(metadata['diff']).toBe('--- a/a.ts\n+++ b/a.ts\n@@ -1,2 +1,2 @@\n const a = 1;\n-const b = 2;\n+const b = 3;\n');
    expect(metadata['before_hash']).toBe(sha256HexSync(new TextEncoder().encode('const a = 1;\nconst b = 2;\n')));
    expect(metadata['after_hash']).toBe(sha256HexSync(new TextEncoder().encode('const a = 1;\nconst b = 3;\n')));
    expect(metadata).toHaveProperty('version');
    // Binary content: hashes and sizes, no diff.
    await ws.writeFile({ path: 'b.bin', content: Uint8Array.of(0, 1, 2), abortSignal: new AbortController().signal });
    const binary = await run(write, ws, { file_path: 'b.bin', content: 'text now' });
    expect(binary.metadata).toMatchObject({ before_bytes: 3, after_bytes: 8, diff_unavailable: expect.any(String), created: false });
    expect((binary.metadata as Record<string, unknown>)['diff']).toBeUndefined();
  });

  it('a large write over an existing file gets bounded previews, a cut diff and the full diff as an artifact, like edit', async () => {
    const lines = Array.from({ length: 20000 }, (_, i) => `row ${i} value`);
    const ws = new MemoryWorkspaceBackend({ files: { 'big.txt': `${lines.join('\n')}\n` } });
    const content = `${lines.map((l) => l.replace('value', 'VALUE')).join('\n')}\n`;
    const result = await run(write, ws, { file_path: 'big.txt', content });
    expect(await fileText(ws, 'big.txt')).toBe(content);
    const metadata = result.metadata as Record<string, unknown>;
    expect(metadata).toMatchObject({ path: 'big.txt', created: false, large: true, diff_truncated: true, additions: 20000, deletions: 20000 });
    expect(metadata['before']).toBeUndefined();
    expect(metadata['after']).toBeUndefined();
    expect(metadata['before_preview']).toContain('row 0 value');
    expect(metadata['after_preview']).toContain('row 0 VALUE');
    expect(new TextEncoder().encode(metadata['diff'] as string).byteLength).toBeLessThan(MAX_INLINE_DIFF_BYTES + 200);
    expect(result.artifacts).toHaveLength(1);
    expect(result.artifactsStored.get(result.artifacts?.[0] ?? '')?.content).toContain('+row 19999 VALUE');
    expect(metadata['before_hash']).toMatch(/^[0-9a-f]{64}$/);
    expect(metadata['after_bytes']).toBe(new TextEncoder().encode(content).byteLength);
  });

  it('refuses a directory target and never writes outside the root', async () => {
    const ws = new MemoryWorkspaceBackend({ files: { 'dir/a.txt': 'a' } });
    expect((await run(write, ws, { file_path: 'dir', content: 'x' })).errorKind?.type).toBe('invalid_argument');
    await expect(run(write, ws, { file_path: '../escape.txt', content: 'x' })).rejects.toMatchObject({ code: 'SECURITY_ERROR' });
    expect(ws.paths()).toEqual(['dir/a.txt']);
  });
});

describe('edit', () => {
  it('replaces a unique match and reports diff metadata with hashes', async () => {
    const ws = new MemoryWorkspaceBackend({ files: { 'a.ts': 'const a = 1;\nconst b = 2;\n' } });
    const result = await run(edit, ws, { file_path: 'a.ts', old_string: 'b = 2', new_string: 'b = 3' });
    expect(result.exitCode).toBeUndefined();
    expect(await fileText(ws, 'a.ts')).toBe('const a = 1;\nconst b = 3;\n');
    const metadata = result.metadata as Record<string, unknown>;
    expect(metadata).toMatchObject({ replacements: 1, additions: 1, deletions: 1, before_bytes: 26, after_bytes: 26, dry_run: false, large: false });
    expect(metadata['diff']).toBe('--- a/a.ts\n+++ b/a.ts\n@@ -1,2 +1,2 @@\n const a = 1;\n-const b = 2;\n+const b = 3;\n');
    expect(metadata['before_hash']).toBe(sha256HexSync(new TextEncoder().encode('const a = 1;\nconst b = 2;\n')));
    expect(metadata['after_hash']).toBe(sha256HexSync(new TextEncoder().encode('const a = 1;\nconst b = 3;\n')));
  });

  it('explains not-found and not-unique and changes nothing', async () => {
    const ws = new MemoryWorkspaceBackend({ files: { 'a.txt': 'x x x\n' } });
    const missing = await run(edit, ws, { file_path: 'a.txt', old_string: 'y', new_string: 'z' });
    expect(missing.errorKind?.type).toBe('invalid_argument');
    expect(missing.output).toMatch(/not found.*Read the file again.*whitespace/s);
    const ambiguous = await run(edit, ws, { file_path: 'a.txt', old_string: 'x', new_string: 'z' });
    expect(ambiguous.output).toMatch(/matches 3 times.*more surrounding context.*replace_all/s);
    expect(await fileText(ws, 'a.txt')).toBe('x x x\n');
    const all = await run(edit, ws, { file_path: 'a.txt', old_string: 'x', new_string: 'z', replace_all: true });
    expect((all.metadata as { replacements: number }).replacements).toBe(3);
    expect(await fileText(ws, 'a.txt')).toBe('z z z\n');
  });

  it('dry run returns the same metadata, writes nothing and is read-only', async () => {
    const ws = new MemoryWorkspaceBackend({ files: { 'a.txt': 'one two one\n' } });
    const dry = await run(edit, ws, { file_path: 'a.txt', old_string: 'one', new_string: '1', replace_all: true, dry_run: true });
    expect(await fileText(ws, 'a.txt')).toBe('one two one\n');
    expect(edit.capabilities?.({ file_path: 'a.txt', old_string: 'a', new_string: 'b', dry_run: true })).toMatchObject({ readOnly: true, idempotent: true, cancellationSafe: true });
    expect(edit.capabilities?.({ file_path: 'a.txt', old_string: 'a', new_string: 'b' })).toMatchObject({ readOnly: false });
    const real = await run(edit, ws, { file_path: 'a.txt', old_string: 'one', new_string: '1', expected_replacements: 2 });
    const strip = (m: unknown): Record<string, unknown> => {
      const { dry_run: _dry, version: _version, ...rest } = m as Record<string, unknown>;
      return rest;
    };
    expect(strip(real.metadata)).toEqual(strip(dry.metadata));
    expect(await fileText(ws, 'a.txt')).toBe('1 two 1\n');
  });

  it('enforces expected_replacements and max_replacements without writing', async () => {
    const ws = new MemoryWorkspaceBackend({ files: { 'a.txt': 'a a a\n' } });
    const wrong = await run(edit, ws, { file_path: 'a.txt', old_string: 'a', new_string: 'b', expected_replacements: 2 });
    expect(wrong.errorKind?.type).toBe('invalid_argument');
    const tooMany = await run(edit, ws, { file_path: 'a.txt', old_string: 'a', new_string: 'b', replace_all: true, max_replacements: 2 });
    expect(tooMany.output).toContain('more than max_replacements 2');
    expect(await fileText(ws, 'a.txt')).toBe('a a a\n');
  });

  it('keeps CRLF line endings when old_string is quoted with LF', async () => {
    const ws = new MemoryWorkspaceBackend({ files: { 'w.txt': 'one\r\ntwo\r\nthree\r\n' } });
    const result = await run(edit, ws, { file_path: 'w.txt', old_string: 'one\ntwo', new_string: 'uno\ndos' });
    expect(result.exitCode).toBeUndefined();
    expect(await fileText(ws, 'w.txt')).toBe('uno\r\ndos\r\nthree\r\n');
  });

  it('turns a concurrent change into version_conflict', async () => {
    const inner = new MemoryWorkspaceBackend({ files: { 'a.txt': 'old\n' } });
    // A workspace where someone else writes between the tool's read and its write.
    const racing: WorkspaceBackend = {
      kind: inner.kind,
      root: inner.root,
      capabilities: inner.capabilities,
      resolvePath: (options) => inner.resolvePath(options),
      stat: (options) => inner.stat(options),
      writeFile: (options) => inner.writeFile(options),
      readFile: async (options) => {
        const file = await inner.readFile(options);
        await inner.writeFile({ path: options.path, content: 'changed elsewhere\n' });
        return file;
      },
    };
    const result = await run(edit, racing, { file_path: 'a.txt', old_string: 'old', new_string: 'new' });
    expect(result.errorKind).toMatchObject({ type: 'version_conflict', path: 'a.txt' });
    expect(await fileText(inner, 'a.txt')).toBe('changed elsewhere\n');
  });

  it('bounds large edits: previews, truncated diff, artifact with the full diff', async () => {
    const lines = Array.from({ length: 20000 }, (_, i) => `row ${i} value`);
    const ws = new MemoryWorkspaceBackend({ files: { 'big.txt': `${lines.join('\n')}\n` } });
    const result = await run(edit, ws, { file_path: 'big.txt', old_string: 'value', new_string: 'VALUE', replace_all: true });
    const metadata = result.metadata as Record<string, unknown>;
    expect(metadata['large']).toBe(true);
    expect(metadata['diff_truncated']).toBe(true);
    expect(new TextEncoder().encode(metadata['diff'] as string).byteLength).toBeLessThan(MAX_INLINE_DIFF_BYTES + 200);
    expect(metadata['before']).toBeUndefined();
    expect(metadata['before_preview']).toContain('row 0 value');
    expect(metadata['after_preview']).toContain('row 0 VALUE');
    expect(result.artifacts).toHaveLength(1);
    const stored = result.artifactsStored.get(result.artifacts?.[0] ?? '');
    expect(stored?.content.length).toBe(metadata['diff_bytes']);
    expect(stored?.content).toContain('+row 19999 VALUE');
    expect(metadata['additions']).toBe(20000);
  });

  it('an empty old_string is refused even when the schema is bypassed (a direct execute must not spin forever)', async () => {
    const ws = new MemoryWorkspaceBackend({ files: { 'a.txt': 'abc\n' } });
    const result = await run(edit, ws, { file_path: 'a.txt', old_string: '', new_string: 'x' });
    expect(result.errorKind?.type).toBe('invalid_argument');
    expect(await fileText(ws, 'a.txt')).toBe('abc\n');
  });
});
