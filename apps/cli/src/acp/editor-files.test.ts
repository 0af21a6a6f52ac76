import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocalWorkspaceBackend } from '@a3s-lab/code';
import type { WorkspaceBackend } from '@a3s-lab/code';
import { editorFilesOverlay } from './editor-files.js';
import type { EditorFileAccess } from './editor-files.js';

// The editor side as an ACP client implements it: buffers by absolute path, the disk otherwise.
let dir = '';
let buffers: Map<string, string>;
let calls: string[];
const text = (bytes: Uint8Array | undefined): string => new TextDecoder().decode(bytes);

function overlay(access: EditorFileAccess): WorkspaceBackend {
  const inner = new LocalWorkspaceBackend(dir);
  return editorFilesOverlay(
    {
      readText: async (path) => {
        calls.push(`read ${path}`);
        return buffers.get(path) ?? readFileSync(path, 'utf8');
      },
      writeText: async (path, content) => {
        calls.push(`write ${path}`);
        buffers.set(path, content);
      },
      log: () => undefined,
    },
    access,
  )(inner);
}

beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'a3s-editor-files-')));
  writeFileSync(join(dir, 'a.txt'), 'disk\n');
  writeFileSync(join(dir, 'bin.dat'), Buffer.from([1, 0, 2, 3]));
  buffers = new Map([[join(dir, 'a.txt'), 'buffer\n']]);
  calls = [];
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('editorFilesOverlay', () => {
  it('reads text from the editor (ranges cut from the buffer), binary files from disk', async () => {
    const backend = overlay({ read: true, write: true });
    const file = await backend.readFile({ path: 'a.txt' });
    expect([text(file?.content), file?.size, file?.version.startsWith('editor:')]).toEqual(['buffer\n', 7, true]);
    expect(text((await backend.readFile({ path: 'a.txt', range: { start: 2, length: 3 } }))?.content)).toBe('ffe');
    expect([...((await backend.readFile({ path: 'bin.dat' }))?.content ?? [])]).toEqual([1, 0, 2, 3]);
    expect(calls).toEqual([`read ${join(dir, 'a.txt')}`, `read ${join(dir, 'a.txt')}`]);
  });

  it('a conditional write over a buffer that changed since it was read is a Conflict, nothing written', async () => {
    const backend = overlay({ read: true, write: true });
    const read = await backend.readFile({ path: 'a.txt' });
    buffers.set(join(dir, 'a.txt'), 'typed meanwhile\n');
    await expect(backend.writeFile!({ path: 'a.txt', content: 'new\n', expectedVersion: read!.version })).rejects.toMatchObject({ reason: 'Conflict' });
    expect(buffers.get(join(dir, 'a.txt'))).toBe('typed meanwhile\n');
    const again = await backend.readFile({ path: 'a.txt' });
    await backend.writeFile!({ path: 'a.txt', content: 'new\n', expectedVersion: again!.version });
    expect(buffers.get(join(dir, 'a.txt'))).toBe('new\n');
    expect(readFileSync(join(dir, 'a.txt'), 'utf8')).toBe('disk\n');
  });

  it('a client that offers reads only: writes go to disk, checked against the buffer the edit read', async () => {
    const backend = overlay({ read: true, write: false });
    const read = await backend.readFile({ path: 'a.txt' });
    await backend.writeFile!({ path: 'a.txt', content: 'edited buffer\n', expectedVersion: read!.version });
    expect(readFileSync(join(dir, 'a.txt'), 'utf8')).toBe('edited buffer\n');
    expect(calls.filter((call) => call.startsWith('write'))).toEqual([]);
  });

  it('a client that offers writes only: reads come from disk, writes go to the editor checked against the disk version', async () => {
    const backend = overlay({ read: false, write: true });
    const read = await backend.readFile({ path: 'a.txt' });
    expect(text(read?.content)).toBe('disk\n');
    await backend.writeFile!({ path: 'a.txt', content: 'x\n', expectedVersion: read!.version });
    expect(buffers.get(join(dir, 'a.txt'))).toBe('x\n');
    expect(readFileSync(join(dir, 'a.txt'), 'utf8')).toBe('disk\n');
    writeFileSync(join(dir, 'a.txt'), 'changed on disk, longer\n');
    await expect(backend.writeFile!({ path: 'a.txt', content: 'y\n', expectedVersion: read!.version })).rejects.toMatchObject({ reason: 'Conflict' });
    await expect(backend.writeFile!({ path: 'a.txt', content: 'y\n', expectedVersion: null })).rejects.toMatchObject({ reason: 'Conflict' });
    await backend.writeFile!({ path: 'b.txt', content: 'new file\n', expectedVersion: null });
    expect(buffers.get(join(dir, 'b.txt'))).toBe('new file\n');
    expect(calls).toEqual([`write ${join(dir, 'a.txt')}`, `write ${join(dir, 'b.txt')}`]);
  });
});
