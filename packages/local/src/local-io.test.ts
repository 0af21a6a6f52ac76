import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { constants } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

import { backendCall, backendCallsInFlight, closeFd, fstatBig, inPlace, lstatBig, openForRead, readdirNames, readInto, readlinkOf, realpathOf } from './local-io.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'a3s-local-io-')));
mkdirSync(join(root, 'dir'));
writeFileSync(join(root, 'dir', 'file.txt'), 'hello\n');
symlinkSync(join(root, 'dir'), join(root, 'link'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Everything the module does to one path, as data (errors by code). */
async function observe(): Promise<unknown[]> {
  const settle = <T>(promise: Promise<T>): Promise<unknown> => promise.then((value) => value, (error: NodeJS.ErrnoException) => `error ${error.code}`);
  const fd = await openForRead(join(root, 'link', 'file.txt'), constants.O_RDONLY | constants.O_NONBLOCK);
  const buffer = Buffer.alloc(16);
  const bytes = await readInto(fd, buffer, 0, buffer.length, 0);
  const size = (await fstatBig(fd)).size;
  const opened = await readlinkOf(`/proc/self/fd/${fd}`);
  await closeFd(fd);
  return [
    await realpathOf(join(root, 'link', 'file.txt')),
    await settle(realpathOf(join(root, 'missing'))),
    (await lstatBig(join(root, 'link'))).isSymbolicLink(),
    await readlinkOf(join(root, 'link')),
    await readdirNames(root).then((names) => names.sort()),
    await settle(readdirNames(join(root, 'dir', 'file.txt'))),
    buffer.subarray(0, bytes).toString(),
    size,
    opened,
  ];
}

describe('local-io', () => {
  it('runs in place while at most one backend call is in flight, through the thread pool beyond', async () => {
    expect(inPlace()).toBe(true);
    const seen: boolean[] = [];
    await backendCall(async () => {
      seen.push(inPlace());
      await Promise.all([backendCall(async () => seen.push(inPlace())), backendCall(async () => seen.push(inPlace()))]);
      expect(backendCallsInFlight()).toBe(1);
    });
    expect(seen).toEqual([true, false, false]);
    expect(backendCallsInFlight()).toBe(0);
    await expect(backendCall(() => Promise.reject(new Error('failed')))).rejects.toThrow('failed');
    expect(backendCallsInFlight()).toBe(0);
  });

  it('gives the same answers and the same errors either way', async () => {
    const inPlaceAnswers = await backendCall(observe);
    let pooledAnswers: unknown[] = [];
    let release!: () => void;
    const other = backendCall(() => new Promise<void>((resolve) => (release = resolve)));
    await backendCall(async () => {
      expect(inPlace()).toBe(false);
      pooledAnswers = await observe();
      expect(inPlace()).toBe(false);
    });
    release();
    await other;
    expect(pooledAnswers).toEqual(inPlaceAnswers);
    expect(inPlaceAnswers).toEqual([
      join(root, 'dir', 'file.txt'),
      'error ENOENT',
      true,
      join(root, 'dir'),
      ['dir', 'link'],
      'error ENOTDIR',
      'hello\n',
      6n,
      join(root, 'dir', 'file.txt'),
    ]);
  });
});
