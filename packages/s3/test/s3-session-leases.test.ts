import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { S3SessionLeases } from '../src/index.js';
import { TEST_BUCKET, startS3Fixture } from './helpers/s3-fixture.js';
import type { S3Fixture } from './helpers/s3-fixture.js';

let s3: S3Fixture;
beforeAll(async () => {
  s3 = await startS3Fixture();
});
afterAll(async () => {
  await s3?.stop();
});

function leases(prefix: string, clock: { now: number }, ttlMs = 1_000): S3SessionLeases {
  return new S3SessionLeases({ ...s3.connection, bucket: TEST_BUCKET, prefix, ttlMs, now: () => clock.now });
}

describe('S3SessionLeases (conditional writes on s3rver behind the enforcing proxy)', () => {
  it('one process holds a session at a time; renew, release and takeover after expiry', async () => {
    const prefix = s3.freshPrefix('leases');
    const clock = { now: 1_000_000 };
    const a = leases(prefix, clock);
    const b = leases(prefix, clock);
    expect(await a.acquire('s1')).toEqual({ acquired: true });
    const refused = await b.acquire('s1');
    expect(refused).toMatchObject({ acquired: false, holder: { owner: a.owner, pid: process.pid } });
    // Not re-entrant, even for its holder.
    expect((await a.acquire('s1')).acquired).toBe(false);
    expect(await a.renew('s1')).toBe(true);
    expect(await b.renew('s1')).toBe(false);
    // B's release of a lease it does not hold changes nothing.
    await b.release('s1');
    expect((await b.acquire('s1')).acquired).toBe(false);
    // A releases: B acquires at once.
    await a.release('s1');
    expect(await b.acquire('s1')).toEqual({ acquired: true });
    // B stops renewing; after the ttl A takes it over, and B's renewal then fails.
    clock.now += 1_001;
    expect(await a.acquire('s1')).toEqual({ acquired: true });
    expect(await b.renew('s1')).toBe(false);
    expect(await s3.keysUnder(`${prefix}/leases/`)).toEqual([`${prefix}/leases/s1.lease`]);
  });

  it('of many processes racing for a free or an expired lease, exactly one wins', async () => {
    const prefix = s3.freshPrefix('race');
    const clock = { now: 5_000_000 };
    const contenders = Array.from({ length: 6 }, () => leases(prefix, clock));
    const free = await Promise.all(contenders.map((lease) => lease.acquire('hot')));
    expect(free.filter((attempt) => attempt.acquired)).toHaveLength(1);
    clock.now += 2_000;
    const expired = await Promise.all(contenders.map((lease) => lease.acquire('hot')));
    expect(expired.filter((attempt) => attempt.acquired)).toHaveLength(1);
    const winner = contenders[expired.findIndex((attempt) => attempt.acquired)]!;
    expect(await winner.renew('hot')).toBe(true);
  });

  it('a corrupt lease object is an expired lease of nobody; bad options and ids are typed errors', async () => {
    const prefix = s3.freshPrefix('corrupt');
    await s3.putText(`${prefix}/leases/s2.lease`, 'not json');
    const clock = { now: 1 };
    expect(await leases(prefix, clock).acquire('s2')).toEqual({ acquired: true });
    expect(() => new S3SessionLeases({ ...s3.connection, bucket: TEST_BUCKET, ttlMs: 5 })).toThrow(expect.objectContaining({ code: 'CONFIG_ERROR', details: { field: 'ttlMs' } }));
    await expect(leases(prefix, clock).acquire('../x')).rejects.toMatchObject({ code: 'SESSION_ERROR' });
  });
});
