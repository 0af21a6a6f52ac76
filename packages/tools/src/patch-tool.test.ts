import { MemoryWorkspaceBackend } from '@a3s-lab/code-core/testing';
import { describe, expect, it } from 'vitest';
import { fileText, run } from '../test/tool-context.js';
import { createPatchTool } from './patch-tool.js';
import { createUnifiedDiff } from './unified-diff.js';

const patch = createPatchTool();

async function expectUnchanged(ws: MemoryWorkspaceBackend, path: string, content: string, diff: string, pattern: RegExp): Promise<void> {
  const result = await run(patch, ws, { file_path: path, diff });
  expect(result.exitCode).toBe(1);
  expect(result.errorKind?.type).toBe('invalid_argument');
  expect(result.output).toMatch(pattern);
  expect(await fileText(ws, path)).toBe(content);
}

describe('patch', () => {
  it('applies the SDK example (no headers, no trailing newline in the diff)', async () => {
    const ws = new MemoryWorkspaceBackend({ files: { 'notes.txt': 'uno\ntwo\n' } });
    const result = await run(patch, ws, { file_path: 'notes.txt', diff: '@@ -1,2 +1,2 @@\n uno\n-two\n+dos' });
    expect(result.exitCode).toBeUndefined();
    expect(await fileText(ws, 'notes.txt')).toBe('uno\ndos\n');
    expect(result.metadata).toMatchObject({ additions: 1, deletions: 1, hunks_applied: 1, created: false });
  });

  it('applies multi-hunk diffs produced by createUnifiedDiff (round trip)', async () => {
    const before = Array.from({ length: 60 }, (_, i) => `line ${i}`).join('\n') + '\n';
    const after = before.replace('line 3\n', 'line three\n').replace('line 40\n', '').replace('line 59\n', 'line 59\nextra\n');
    const diff = createUnifiedDiff('f.txt', before, after).text;
    expect(diff.match(/^@@/gm)).toHaveLength(3);
    const ws = new MemoryWorkspaceBackend({ files: { 'f.txt': before } });
    const result = await run(patch, ws, { file_path: 'f.txt', diff });
    expect(result.output).toMatch(/^Patched f\.txt: 3 hunk/);
    expect(await fileText(ws, 'f.txt')).toBe(after);
  });

  it('refuses a stale patch, naming the hunk and line, and changes nothing', async () => {
    const content = 'a\nb\nc\nd\n';
    const ws = new MemoryWorkspaceBackend({ files: { 'f.txt': content } });
    await expectUnchanged(ws, 'f.txt', content, '@@ -1,2 +1,2 @@\n a\n-B\n+x\n', /hunk 1 does not apply: line 2 of f\.txt is "b" but the diff expects "B"/);
    // The first hunk is fine, the second is stale: nothing at all is written.
    await expectUnchanged(ws, 'f.txt', content, '@@ -1,1 +1,1 @@\n-a\n+A\n@@ -4,1 +4,1 @@\n-z\n+Z\n', /hunk 2 does not apply: line 4/);
    await expectUnchanged(ws, 'f.txt', content, '@@ -2,1 +2,1 @@\n-b \n+x\n', /differ only in whitespace/);
  });

  it('checks header counts against the hunk bodies and positions', async () => {
    const content = 'a\nb\nc\n';
    const ws = new MemoryWorkspaceBackend({ files: { 'f.txt': content } });
    await expectUnchanged(ws, 'f.txt', content, '@@ -1,3 +1,3 @@\n a\n-b\n+x\n', /hunk 1 ends early/);
    await expectUnchanged(ws, 'f.txt', content, '@@ -1,1 +1,1 @@\n a\n-b\n+x\n', /does not match its header|more lines than its header/);
    await expectUnchanged(ws, 'f.txt', content, '@@ -2,1 +5,1 @@\n-b\n+x\n', /header says \+5,1 but its new lines start at line 2/);
    await expectUnchanged(ws, 'f.txt', content, '@@ -7,1 +7,1 @@\n-b\n+x\n', /reaches past the end/);
    await expectUnchanged(ws, 'f.txt', content, 'not a diff', /no hunks/);
  });

  it('honours "\\ No newline at end of file" markers in both directions', async () => {
    const ws = new MemoryWorkspaceBackend({ files: { 'n.txt': 'a\nb' } });
    await expectUnchanged(ws, 'n.txt', 'a\nb', '@@ -2,1 +2,1 @@\n-b\n+c\n', /no newline at the end/);
    const added = await run(patch, ws, { file_path: 'n.txt', diff: '@@ -2,1 +2,1 @@\n-b\n\\ No newline at end of file\n+c\n' });
    expect(added.exitCode).toBeUndefined();
    expect(await fileText(ws, 'n.txt')).toBe('a\nc\n');
    const removed = await run(patch, ws, { file_path: 'n.txt', diff: '@@ -2,1 +2,1 @@\n-c\n+d\n\\ No newline at end of file\n' });
    expect(removed.exitCode).toBeUndefined();
    expect(await fileText(ws, 'n.txt')).toBe('a\nd');
    await expectUnchanged(ws, 'n.txt', 'a\nd', '@@ -1,1 +1,1 @@\n-a\n\\ No newline at end of file\n+A\n', /marks it "\\ No newline at end of file"/);
  });

  it('detects and preserves CRLF line endings', async () => {
    const ws = new MemoryWorkspaceBackend({ files: { 'w.txt': 'one\r\ntwo\r\nthree\r\n' } });
    const lfDiff = await run(patch, ws, { file_path: 'w.txt', diff: '@@ -1,2 +1,3 @@\n one\n-two\n+2\n+2b\n' });
    expect(lfDiff.exitCode).toBeUndefined();
    expect(await fileText(ws, 'w.txt')).toBe('one\r\n2\r\n2b\r\nthree\r\n');
    const crlfDiff = await run(patch, ws, { file_path: 'w.txt', diff: '@@ -4,1 +4,1 @@\r\n-three\r\n+3\r\n' });
    expect(crlfDiff.exitCode).toBeUndefined();
    expect(await fileText(ws, 'w.txt')).toBe('one\r\n2\r\n2b\r\n3\r\n');
    const lfFile = new MemoryWorkspaceBackend({ files: { 'l.txt': 'x\ny\n' } });
    // A diff whose lines disagree about CR is checked line by line against an LF file.
    await expectUnchanged(lfFile, 'l.txt', 'x\ny\n', '@@ -1,2 +1,2 @@\n x\r\n-y\n+z\n', /line ending/);
  });

  it('applies what `git diff` emits for a CRLF file (LF headers, CR kept as line content)', async () => {
    const ws = new MemoryWorkspaceBackend({ files: { 'w.txt': 'one\r\ntwo\r\nthree\r\n' } });
    const gitDiff = 'diff --git a/w.txt b/w.txt\nindex e1587ff..d48bcb7 100644\n--- a/w.txt\n+++ b/w.txt\n@@ -1,3 +1,3 @@\n one\r\n-two\r\n+2\r\n three\r\n';
    const applied = await run(patch, ws, { file_path: 'w.txt', diff: gitDiff });
    expect(applied.exitCode, applied.output).toBeUndefined();
    expect(await fileText(ws, 'w.txt')).toBe('one\r\n2\r\nthree\r\n');
    // A stale line of the same diff names the CRLF file line correctly.
    await expectUnchanged(ws, 'w.txt', 'one\r\n2\r\nthree\r\n', gitDiff, /line 2 of w\.txt is "2" \(CRLF\) but the diff expects "two"/);
    // The same git diff against an LF copy names the line-ending mismatch, with the file's ending.
    const lf = new MemoryWorkspaceBackend({ files: { 'w.txt': 'one\ntwo\nthree\n' } });
    await expectUnchanged(lf, 'w.txt', 'one\ntwo\nthree\n', gitDiff, /the diff has CRLF here, the file line ends in LF/);
  });

  it('requires headers to name file_path; a header pointing elsewhere or outside changes nothing', async () => {
    const content = 'a\n';
    const ws = new MemoryWorkspaceBackend({ files: { 'src/f.txt': content, 'other.txt': 'a\n' } });
    const body = '@@ -1,1 +1,1 @@\n-a\n+b\n';
    await expectUnchanged(ws, 'src/f.txt', content, `--- a/other.txt\n+++ b/other.txt\n${body}`, /names 'a\/other\.txt'/);
    await expectUnchanged(ws, 'src/f.txt', content, `--- a/src/f.txt\n+++ b/../../etc/passwd\n${body}`, /names/);
    await expectUnchanged(ws, 'src/f.txt', content, `--- /etc/passwd\n+++ /etc/passwd\n${body}`, /names/);
    await expectUnchanged(ws, 'src/f.txt', content, `--- a/src/f.txt\n+++ b/src/f.txt\n${body}--- a/other.txt\n+++ b/other.txt\n${body}`, /more than one file/);
    expect(await fileText(ws, 'other.txt')).toBe('a\n');
    const ok = await run(patch, ws, { file_path: './src/f.txt', diff: `diff --git a/src/f.txt b/src/f.txt\nindex 1..2 100644\n--- a/src/f.txt\n+++ b/src/f.txt\n${body}` });
    expect(ok.exitCode).toBeUndefined();
    expect(await fileText(ws, 'src/f.txt')).toBe('b\n');
  });

  it('creates a file from /dev/null and refuses to create one that exists', async () => {
    const ws = new MemoryWorkspaceBackend({ files: { 'exists.txt': 'x\n' } });
    const diff = '--- /dev/null\n+++ b/new/file.txt\n@@ -0,0 +1,2 @@\n+hello\n+world\n';
    const created = await run(patch, ws, { file_path: 'new/file.txt', diff });
    expect(created.metadata).toMatchObject({ created: true, additions: 2 });
    expect(await fileText(ws, 'new/file.txt')).toBe('hello\nworld\n');
    await expectUnchanged(ws, 'exists.txt', 'x\n', diff.replace('new/file.txt', 'exists.txt'), /already exists/);
  });

  it('refuses paths outside the workspace', async () => {
    const ws = new MemoryWorkspaceBackend({ files: { 'a.txt': 'a\n' } });
    const result = await run(patch, ws, { file_path: '../a.txt', diff: '@@ -1,1 +1,1 @@\n-a\n+b\n' });
    expect(result.errorKind?.type).toBe('permission_denied');
    expect(await fileText(ws, 'a.txt')).toBe('a\n');
  });
});
