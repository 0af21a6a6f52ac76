import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FileSessionLeases } from '../src/index.js';

const root = mkdtempSync(join(tmpdir(), 'a3s-leases-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const freshDir = (): string => join(root, `d${(n += 1)}`);

describe('FileSessionLeases: one process runs a session at a time', () => {
  it('the first acquirer wins; others (and the holder again) see the holder until it releases', async () => {
    const dir = freshDir();
    const a = new FileSessionLeases(dir);
    const b = new FileSessionLeases(dir);
    expect(await a.acquire('s1')).toEqual({ acquired: true });
    expect(await a.acquire('s1')).toMatchObject({ acquired: false, holder: { owner: a.owner } });
    const refused = await b.acquire('s1');
    expect(refused).toMatchObject({ acquired: false, holder: { owner: a.owner, pid: process.pid } });
    expect(await b.acquire('s2')).toEqual({ acquired: true });
    await b.release('s1');
    expect((await b.acquire('s1')).acquired).toBe(false);
    await a.release('s1');
    expect(await b.acquire('s1')).toEqual({ acquired: true });
    expect(await a.renew('s1')).toBe(false);
    expect(await b.renew('s1')).toBe(true);
  });

  it('concurrent acquirers: exactly one wins', async () => {
    const dir = freshDir();
    const contenders = Array.from({ length: 8 }, () => new FileSessionLeases(dir));
    const results = await Promise.all(contenders.map((l) => l.acquire('race')));
    expect(results.filter((r) => r.acquired)).toHaveLength(1);
  });

  it('an expired lease (a crashed holder) is taken over once; renewal keeps it alive; the loser of a takeover stops', async () => {
    const dir = freshDir();
    let now = 1_000_000;
    const clock = () => now;
    const a = new FileSessionLeases(dir, { ttlMs: 1000, now: clock });
    const b = new FileSessionLeases(dir, { ttlMs: 1000, now: clock });
    const c = new FileSessionLeases(dir, { ttlMs: 1000, now: clock });
    expect((await a.acquire('s')).acquired).toBe(true);
    now += 900;
    expect(await a.renew('s')).toBe(true);
    now += 900;
    expect((await b.acquire('s')).acquired).toBe(false);
    now += 200;
    const [rb, rc] = await Promise.all([b.acquire('s'), c.acquire('s')]);
    expect([rb.acquired, rc.acquired].filter(Boolean)).toHaveLength(1);
    expect(await a.renew('s')).toBe(false);
    expect(readdirSync(dir).filter((f) => f.endsWith('.takeover') || f.endsWith('.tmp'))).toEqual([]);
  });

  it('a torn lease file counts as expired', async () => {
    const dir = freshDir();
    const a = new FileSessionLeases(dir);
    await a.acquire('other');
    writeFileSync(join(dir, 'torn.lease'), '{"own');
    expect(await a.acquire('torn')).toEqual({ acquired: true });
  });
});
