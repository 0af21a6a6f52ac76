// `read` of a few lines of a huge file must not load the file: it streams windows of it. Files
// past what can be loaded whole fail with a typed error, never a raw Node error.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { WorkspaceBackend, WorkspaceFile } from '@a3s-lab/code-core';
import { afterEach, describe, expect, it } from 'vitest';
import { createBuiltinTools } from '../src/index.js';
import { WHOLE_READ_BYTES } from '../src/line-window.js';
import type { LocalFixture } from './local-fixture.js';
import { createLocalFixture } from './local-fixture.js';
import { run } from './tool-context.js';

const tools = Object.fromEntries(createBuiltinTools().map((tool) => [tool.name, tool]));
const tool = (name: string) => tools[name] as NonNullable<(typeof tools)[string]>;

let fixture: LocalFixture | undefined;
afterEach(async () => {
  await fixture?.cleanup();
  fixture = undefined;
});

/** Wraps a backend and records the largest content any readFile returned. */
function spying(inner: WorkspaceBackend): { backend: WorkspaceBackend; largest: () => number } {
  let largest = 0;
  const backend: WorkspaceBackend = Object.create(inner) as WorkspaceBackend;
  Object.assign(backend, {
    readFile: async (options: Parameters<WorkspaceBackend['readFile']>[0]): Promise<WorkspaceFile | null> => {
      const file = await inner.readFile(options);
      largest = Math.max(largest, file?.content.byteLength ?? 0);
      return file;
    },
  });
  return { backend, largest: () => largest };
}

// 24 MiB of numbered lines: 3x the whole-read threshold.
const LINES = 400_000;
const bigText = (): string => Array.from({ length: LINES }, (_, index) => `line ${index} ${'x'.repeat(50)}`).join('\n') + '\n';

describe('reading large files', () => {
  it.each([
    [0, 5],
    [123_456, 3],
    [LINES - 2, 10],
  ])('read offset %i limit %i streams, never holding the whole file', async (offset, limit) => {
    fixture = await createLocalFixture();
    await fixture.write('big.log', bigText());
    const { backend, largest } = spying(fixture.backend);
    const result = await run(tool('read'), backend, { file_path: 'big.log', offset, limit });
    expect(result.exitCode, result.output).toBeUndefined();
    expect(result.output).toContain(`${offset + 1}\tline ${offset} `);
    expect(result.output).not.toContain(`\tline ${offset + Math.min(limit, LINES - offset)} `);
    expect(largest()).toBeLessThanOrEqual(WHOLE_READ_BYTES);
  });

  it('a single 20 MiB line is shown cut, with its real length', async () => {
    fixture = await createLocalFixture();
    await fixture.write('one-line.txt', 'y'.repeat(20 * 1024 * 1024));
    const { backend, largest } = spying(fixture.backend);
    const result = await run(tool('read'), backend, { file_path: 'one-line.txt', limit: 5 });
    expect(result.output).toContain(`line truncated: ${20 * 1024 * 1024 - 2000} more characters`);
    expect(largest()).toBeLessThanOrEqual(WHOLE_READ_BYTES);
  });

  it('files mode and raw mode refuse a large member with a typed error instead of loading it', async () => {
    fixture = await createLocalFixture({ 'small.txt': 'small\n' });
    await fixture.write('big.log', bigText());
    const { backend, largest } = spying(fixture.backend);
    const files = await run(tool('read'), backend, { files: [{ path: 'big.log' }, { path: 'small.txt' }] });
    expect(files.output).toContain('read it with file_path');
    expect(files.output).toContain('small');
    const raw = await run(tool('read'), backend, { file_path: 'big.log', format: 'raw' });
    expect(raw.errorKind?.type).toBe('invalid_argument');
    expect(largest()).toBeLessThanOrEqual(WHOLE_READ_BYTES);
  });

  it('a 3 GiB (sparse) file gives typed answers, never a raw Node error', async () => {
    fixture = await createLocalFixture();
    execFileSync('truncate', ['-s', '3G', join(fixture.root, 'huge.bin')]);
    const read = await run(tool('read'), fixture.backend, { file_path: 'huge.bin', limit: 5 });
    expect(read.output).toContain('binary file, 3221225472 bytes');
    const edit = await run(tool('edit'), fixture.backend, { file_path: 'huge.bin', old_string: 'a', new_string: 'b' });
    expect(edit.errorKind?.type).toBe('invalid_argument');
    expect(edit.output).toContain('too large to load whole');
  });
});
