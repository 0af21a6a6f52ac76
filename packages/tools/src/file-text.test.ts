import { MemoryWorkspaceBackend } from '@a3s-lab/code-core/testing';
import { describe, expect, it } from 'vitest';
import { run } from '../test/tool-context.js';
import { createEditTool } from './edit-tool.js';
import { decodeFileText, encodeFileText } from './file-text.js';
import { createPatchTool } from './patch-tool.js';
import { createReadTool } from './read-tool.js';

const edit = createEditTool();
const patch = createPatchTool();
const BOM = [0xef, 0xbb, 0xbf];

function bytesOf(text: string, bom = false): Uint8Array {
  return Uint8Array.from([...(bom ? BOM : []), ...new TextEncoder().encode(text)]);
}

async function fileBytes(ws: MemoryWorkspaceBackend, path: string): Promise<number[]> {
  const file = await ws.readFile({ path });
  return [...(file?.content ?? [])];
}

describe('edit and patch keep the file bytes they do not change', () => {
  it('edit keeps a UTF-8 byte order mark', async () => {
    const ws = new MemoryWorkspaceBackend({ files: { 'a.cs': bytesOf('using System;\nclass A {}\n', true) } });
    const result = await run(edit, ws, { file_path: 'a.cs', old_string: 'class A {}', new_string: 'class B {}' });
    expect(result.exitCode).toBeUndefined();
    expect(await fileBytes(ws, 'a.cs')).toEqual([...bytesOf('using System;\nclass B {}\n', true)]);
    // The diff shows text, not the BOM.
    expect((result.metadata as { diff: string }).diff).not.toContain('\uFEFF');
  });

  it('edit of the first line of a BOM file matches without the BOM and keeps it', async () => {
    const ws = new MemoryWorkspaceBackend({ files: { 'a.txt': bytesOf('first\nsecond\n', true) } });
    const result = await run(edit, ws, { file_path: 'a.txt', old_string: 'first\n', new_string: 'FIRST\n' });
    expect(result.exitCode).toBeUndefined();
    expect(await fileBytes(ws, 'a.txt')).toEqual([...bytesOf('FIRST\nsecond\n', true)]);
  });

  it('patch keeps a UTF-8 byte order mark; line 1 context is quoted without it', async () => {
    const ws = new MemoryWorkspaceBackend({ files: { 'a.txt': bytesOf('one\ntwo\n', true) } });
    const result = await run(patch, ws, { file_path: 'a.txt', diff: '@@ -1,2 +1,2 @@\n one\n-two\n+TWO\n' });
    expect(result.exitCode).toBeUndefined();
    expect(await fileBytes(ws, 'a.txt')).toEqual([...bytesOf('one\nTWO\n', true)]);
  });

  it('edit refuses a file that is not valid UTF-8 and leaves every byte as it was', async () => {
    // Latin-1 "café" then an ASCII line: a lenient decode would write U+FFFD over the é.
    const original = Uint8Array.from([0x63, 0x61, 0x66, 0xe9, 0x0a, ...new TextEncoder().encode('x = 1\n')]);
    const ws = new MemoryWorkspaceBackend({ files: { 'l1.txt': original } });
    const result = await run(edit, ws, { file_path: 'l1.txt', old_string: 'x = 1', new_string: 'x = 2' });
    expect(result.exitCode).toBe(1);
    expect(result.errorKind?.type).toBe('invalid_argument');
    expect(result.output).toMatch(/UTF-8/);
    expect(await fileBytes(ws, 'l1.txt')).toEqual([...original]);
  });

  it('patch refuses a file that is not valid UTF-8 and leaves every byte as it was', async () => {
    const original = Uint8Array.from([...new TextEncoder().encode('x = 1\n'), 0xff, 0x0a]);
    const ws = new MemoryWorkspaceBackend({ files: { 'bad.txt': original } });
    const result = await run(patch, ws, { file_path: 'bad.txt', diff: '@@ -1 +1 @@\n-x = 1\n+x = 2\n' });
    expect(result.exitCode).toBe(1);
    expect(result.errorKind?.type).toBe('invalid_argument');
    expect(await fileBytes(ws, 'bad.txt')).toEqual([...original]);
  });

  it('read format raw returns the exact text, byte order mark included', async () => {
    const ws = new MemoryWorkspaceBackend({ files: { 'a.txt': bytesOf('one\r\ntwo\n', true) } });
    const result = await run(createReadTool(), ws, { file_path: 'a.txt', format: 'raw' });
    expect(result.output).toBe('\uFEFFone\r\ntwo\n');
  });

  it('decodeFileText / encodeFileText round-trip, a split multi-byte character is invalid', () => {
    expect(decodeFileText(bytesOf('héllo', true))).toEqual({ text: 'héllo', bom: true });
    expect(decodeFileText(bytesOf(''))).toEqual({ text: '', bom: false });
    expect([...encodeFileText('héllo', true)]).toEqual([...bytesOf('héllo', true)]);
    expect(decodeFileText(bytesOf('é').subarray(0, 1))).toBeNull();
  });
});
