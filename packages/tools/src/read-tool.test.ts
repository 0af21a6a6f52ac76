import { MemoryWorkspaceBackend } from '@a3s-lab/code-core/testing';
import { describe, expect, it } from 'vitest';
import { run } from '../test/tool-context.js';
import { createReadTool } from './read-tool.js';
import { byteLength } from './tool-support.js';

const read = createReadTool();
const numbered = (count: number, width = 10): string => Array.from({ length: count }, (_, i) => `line ${String(i + 1).padStart(width, '0')}`).join('\n') + '\n';

describe('read (single file)', () => {
  it('renders cat -n style lines and honours offset and limit', async () => {
    const ws = new MemoryWorkspaceBackend({ files: { 'a.txt': 'alpha\r\nbeta\ngamma' } });
    const all = await run(read, ws, { file_path: 'a.txt' });
    expect(all.output).toBe('     1\talpha\n     2\tbeta\n     3\tgamma\n');
    expect(all.metadata).toMatchObject({ total_lines: 3, next_offset: null });
    const window = await run(read, ws, { file_path: 'a.txt', offset: 1, limit: 1 });
    expect(window.output).toBe('     2\tbeta\n... 1 more line; call read with offset=2\n');
    expect(window.metadata).toMatchObject({ offset: 1, lines_shown: 1, next_offset: 2 });
  });

  it('cuts long lines with a marker and reports missing files as not_found', async () => {
    const ws = new MemoryWorkspaceBackend({ files: { 'long.txt': `${'x'.repeat(2500)}\n` } });
    const result = await run(read, ws, { file_path: 'long.txt' });
    expect(result.output).toContain('[line truncated: 500 more characters]');
    const missing = await run(read, ws, { file_path: 'nope.txt' });
    expect(missing.exitCode).toBe(1);
    expect(missing.errorKind).toEqual({ type: 'not_found', path: 'nope.txt' });
  });

  it('rejects file_path with files, neither, and an offset past the end', async () => {
    const ws = new MemoryWorkspaceBackend({ files: { 'a.txt': 'one\n' } });
    for (const args of [{}, { file_path: 'a.txt', files: [{ path: 'a.txt' }] }, { files: [{ path: 'a.txt' }], offset: 1 }, { file_path: 'a.txt', offset: 5 }]) {
      const result = await run(read, ws, args);
      expect(result.errorKind?.type).toBe('invalid_argument');
    }
  });

  it('attaches images by magic bytes and describes other binary files', async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
    const ws = new MemoryWorkspaceBackend({ files: { 'pic.dat': png, 'blob.bin': new Uint8Array([1, 2, 0, 3]) } });
    const image = await run(read, ws, { file_path: 'pic.dat' });
    expect(image.attachments?.[0]?.mediaType).toBe('image/png');
    expect(image.attachments?.[0]?.data).toEqual(png);
    const binary = await run(read, ws, { file_path: 'blob.bin' });
    expect(binary.output).toBe('blob.bin: binary file, 4 bytes (not shown)');
    expect(binary.attachments).toBeUndefined();
  });

  it('stops at the byte budget and names the next offset', async () => {
    const ws = new MemoryWorkspaceBackend({ files: { 'big.txt': numbered(500) } });
    const result = await run(read, ws, { file_path: 'big.txt', max_output_bytes: 1024 });
    expect(byteLength(result.output)).toBeLessThanOrEqual(1024);
    const next = (result.metadata as { next_offset: number }).next_offset;
    expect(next).toBeGreaterThan(0);
    expect(result.output).toContain(`call read with offset=${next}`);
  });
});

describe('read (raw format)', () => {
  it('returns the exact text with line endings, or a line window', async () => {
    const ws = new MemoryWorkspaceBackend({ files: { 'a.txt': 'one\r\ntwo\nthree', 'b.bin': new Uint8Array([0, 1]) } });
    expect((await run(read, ws, { file_path: 'a.txt', format: 'raw' })).output).toBe('one\r\ntwo\nthree');
    const window = await run(read, ws, { file_path: 'a.txt', format: 'raw', offset: 1, limit: 1 });
    expect(window.output).toBe('two\n');
    expect(window.metadata).toMatchObject({ next_offset: 2, total_lines: 3 });
    expect((await run(read, ws, { file_path: 'b.bin', format: 'raw' })).errorKind?.type).toBe('invalid_argument');
    expect((await run(read, ws, { files: [{ path: 'a.txt' }], format: 'raw' })).errorKind?.type).toBe('invalid_argument');
  });
});

describe('read (files mode)', () => {
  it('keeps request order, fails members alone and reports them', async () => {
    const ws = new MemoryWorkspaceBackend({ files: { 'b.txt': 'bee\n', 'a.txt': 'ay\n' } });
    const result = await run(read, ws, { files: [{ path: 'b.txt' }, { path: 'missing.txt' }, { path: '../outside.txt' }, { path: 'a.txt' }] });
    expect(result.exitCode).toBeUndefined();
    expect(result.output.indexOf('==> b.txt <==')).toBeLessThan(result.output.indexOf('==> a.txt <=='));
    expect(result.output).toContain('==> missing.txt <==\nerror: File not found: missing.txt');
    const batch = (result.metadata as { batch: { failed: number[]; truncated: boolean } }).batch;
    expect(batch.failed).toEqual([1, 2]);
    expect(batch.truncated).toBe(false);
    const files = (result.metadata as { files: { status: string; error?: { type: string } }[] }).files;
    expect(files.map((f) => f.status)).toEqual(['ok', 'error', 'error', 'ok']);
    expect(files[2]?.error?.type).toBe('permission_denied');
  });

  it('fails with partial_failure when every member fails', async () => {
    const ws = new MemoryWorkspaceBackend();
    const result = await run(read, ws, { files: [{ path: 'x' }, { path: 'y' }] });
    expect(result.exitCode).toBe(1);
    expect(result.errorKind).toEqual({ type: 'partial_failure', failed: [0, 1], total: 2 });
  });

  it('shares one byte budget (headers and continuation included) and resumes without repeating lines', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 6; i += 1) files[`f${i}.txt`] = numbered(120 + i * 7);
    const ws = new MemoryWorkspaceBackend({ files });
    const request = [{ path: 'f0.txt' }, { path: 'f1.txt', offset: 10, limit: 100 }, { path: 'f2.txt' }, { path: 'f3.txt', limit: 50 }, { path: 'f4.txt' }, { path: 'f5.txt', offset: 3 }];
    const seen = new Map<string, number[]>();
    let next: unknown = request;
    let calls = 0;
    while (next !== null) {
      calls += 1;
      expect(calls).toBeLessThan(50);
      const result = await run(read, ws, { files: next, max_output_bytes: 2048 });
      expect(byteLength(result.output)).toBeLessThanOrEqual(2048);
      let current = '';
      for (const line of result.output.split('\n')) {
        const header = /^==> (.+) <==$/.exec(line);
        if (header !== null) current = header[1] as string;
        const numberedLine = /^ *(\d+)\t/.exec(line);
        if (numberedLine !== null) seen.set(current, [...(seen.get(current) ?? []), Number(numberedLine[1])]);
      }
      const batch = (result.metadata as { batch: { truncated: boolean; continuation: unknown } }).batch;
      next = batch.truncated ? batch.continuation : null;
    }
    expect(calls).toBeGreaterThan(3);
    const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);
    expect(seen.get('f0.txt')).toEqual(range(1, 120));
    expect(seen.get('f1.txt')).toEqual(range(11, 110));
    expect(seen.get('f2.txt')).toEqual(range(1, 134));
    expect(seen.get('f3.txt')).toEqual(range(1, 50));
    expect(seen.get('f4.txt')).toEqual(range(1, 148));
    expect(seen.get('f5.txt')).toEqual(range(4, 155));
  });

  it('always makes progress when a single line is longer than the budget', async () => {
    const ws = new MemoryWorkspaceBackend({ files: { 'wide.txt': `${'é'.repeat(1900)}\nsecond\n` } });
    const first = await run(read, ws, { files: [{ path: 'wide.txt' }], max_output_bytes: 1024 });
    expect(byteLength(first.output)).toBeLessThanOrEqual(1024);
    const batch = (first.metadata as { batch: { truncated: boolean; continuation: { offset: number }[] } }).batch;
    expect(batch.truncated).toBe(true);
    expect(batch.continuation[0]?.offset).toBe(1);
  });
});
