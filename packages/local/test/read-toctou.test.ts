// A read is checked (confined) and then opened: swapping a directory on the way for a symlink
// between the two must not redirect the read outside the workspace (or to another file).
import { mkdir, mkdtemp, realpath, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { CodeError } from '@a3s-lab/code-core';

import { confinePath } from '../src/internal.js';
import { readConfinedFile } from '../src/file-operations.js';
import { readRegularFile } from '../src/open-regular-file.js';

const SECRET = 'OUTSIDE_SECRET_77';
let parent = '';
let root = '';

beforeEach(async () => {
  parent = await realpath(await mkdtemp(join(tmpdir(), 'a3s-toctou-')));
  root = join(parent, 'ws');
  await mkdir(join(root, 'a', 'b'), { recursive: true });
  await writeFile(join(root, 'a', 'b', 'notes.txt'), 'inside\n');
  await mkdir(join(parent, 'outside', 'b'), { recursive: true });
  await writeFile(join(parent, 'outside', 'notes.txt'), `${SECRET}\n`);
  await writeFile(join(parent, 'outside', 'b', 'notes.txt'), `${SECRET}\n`);
  await mkdir(join(root, 'other'));
  await writeFile(join(root, 'other', 'notes.txt'), 'another file\n');
});

afterEach(async () => {
  await rm(parent, { recursive: true, force: true });
});

async function refusal(promise: Promise<unknown>): Promise<void> {
  const outcome = await promise.then(
    (value) => value,
    (error: unknown) => error,
  );
  expect(CodeError.hasCode(outcome, 'SECURITY_ERROR'), `read returned ${JSON.stringify(outcome)}`).toBe(true);
}

describe('a directory swapped for a symlink between check and open', () => {
  it.each([
    ['the parent, pointing outside', 'a/b', () => join(parent, 'outside')],
    ['the grandparent, pointing outside', 'a', () => join(parent, 'outside')],
    ['the parent, pointing to another directory inside', 'a/b', () => join(root, 'other')],
  ])('%s is refused', async (_name, swapped, destination) => {
    const checked = await confinePath(root, 'a/b/notes.txt');
    expect(checked.exists).toBe(true);
    await rename(join(root, swapped), join(root, `${swapped}.moved`));
    await symlink(destination(), join(root, swapped));
    await refusal(readConfinedFile(checked));
    await refusal(readRegularFile(checked.absolute, checked.relative));
  });

  it('an unchanged path still reads', async () => {
    const checked = await confinePath(root, 'a/b/notes.txt');
    const file = await readConfinedFile(checked);
    expect(Buffer.from(file!.content).toString('utf8')).toBe('inside\n');
  });
});
