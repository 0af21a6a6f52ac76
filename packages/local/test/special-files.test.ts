// A FIFO (or socket, device) in the workspace must never park a libuv thread-pool slot: every
// read path checks the file type first and opens without blocking. On the old code each of these
// calls hung until a writer appeared (the afterEach releases them so the worker can go on).
import { execFileSync } from 'node:child_process';
import { constants, openSync, closeSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import type { Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { CodeError } from '@a3s-lab/code-core';

import { LocalWorkspaceBackend } from '../src/index.js';

const isRoot = process.getuid?.() === 0;

let parent = '';
let root = '';
const fifos: string[] = [];
let server: Server | undefined;

beforeEach(async () => {
  parent = await realpath(await mkdtemp(join(tmpdir(), 'a3s-special-')));
  root = join(parent, 'ws');
  await mkdir(join(root, 'src'), { recursive: true });
  await writeFile(join(root, 'src', 'ok.txt'), 'needle here\n');
  for (const name of ['pipe', 'src/pipe.txt', 'p0', 'p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p7']) {
    execFileSync('mkfifo', [join(root, name)]);
    fifos.push(join(root, name));
  }
  server = createServer();
  await new Promise<void>((resolve) => server!.listen(join(root, 'sock'), resolve));
  if (isRoot) execFileSync('mknod', [join(root, 'dev'), 'c', '1', '3']);
});

afterEach(async () => {
  // Release any reader the old code left blocked in open() (a writer end makes it return).
  for (const fifo of fifos.splice(0)) {
    try {
      closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
    } catch {
      // No reader waiting.
    }
  }
  await new Promise<void>((resolve) => (server === undefined ? resolve() : server.close(() => resolve())));
  await rm(parent, { recursive: true, force: true });
});

const refusal = async (promise: Promise<unknown>): Promise<Record<string, unknown>> => {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(CodeError.isInstance(error)).toBe(true);
  return (error as CodeError).details;
};

describe.each(['ripgrep', 'fallback'] as const)('special files (%s engine)', (searchEngine) => {
  const backend = (): LocalWorkspaceBackend => new LocalWorkspaceBackend(root, { searchEngine });

  it.each([
    ['a FIFO', 'pipe', 'fifo'],
    ['a FIFO in a subdirectory', 'src/pipe.txt', 'fifo'],
    ['a socket', 'sock', 'socket'],
  ])('readFile refuses %s without blocking', async (_what, path, fileType) => {
    const b = backend();
    expect(await refusal(b.readFile({ path }))).toMatchObject({ reason: 'Conflict', fileType });
    await b.close();
  });

  it.skipIf(!isRoot)('readFile refuses a character device', async () => {
    const b = backend();
    expect(await refusal(b.readFile({ path: 'dev' }))).toMatchObject({ reason: 'Conflict', fileType: 'character device' });
    await b.close();
  });

  it('eight FIFO reads at once leave the thread pool free for a regular read', async () => {
    const b = backend();
    const reads = ['p0', 'p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p7'].map((path) => b.readFile({ path }).catch((error: unknown) => error));
    const ok = await b.readFile({ path: 'src/ok.txt' });
    expect(Buffer.from(ok!.content).toString('utf8')).toBe('needle here\n');
    for (const result of await Promise.all(reads)) expect(CodeError.isInstance(result)).toBe(true);
    await b.close();
  });

  it.each(['pipe', 'sock'])('search refuses %s as its target', async (path) => {
    const b = backend();
    expect(await refusal(b.search({ pattern: 'needle', path, outputMode: 'content', limit: 10 }))).toMatchObject({ reason: 'Conflict' });
    await b.close();
  });

  it('search over a directory holding FIFOs (and, for the in-process engine, a FIFO .gitignore) skips them', async () => {
    // ripgrep reads ignore files itself: a FIFO there blocks only its child process, which the
    // tool deadline kills; the in-process engine must not block a pool thread on it.
    if (searchEngine === 'fallback') {
      execFileSync('mkfifo', [join(root, '.gitignore')]);
      fifos.push(join(root, '.gitignore'));
    }
    const b = backend();
    const result = await b.search({ pattern: 'needle', outputMode: 'files_with_matches', limit: 10 });
    expect(result.files?.map((file) => file.path)).toEqual(['src/ok.txt']);
    await b.close();
  });

  it('writeFile and deleteFile refuse to replace a FIFO', async () => {
    const b = backend();
    expect(await refusal(b.writeFile({ path: 'pipe', content: 'x' }))).toMatchObject({ reason: 'Conflict' });
    await b.close();
  });
});
