import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { HostFailure } from '@a3s-lab/code-core';

import { S3WorkspaceBackend } from '../src/s3-workspace-backend.js';
import { TEST_BUCKET, startS3Fixture } from './helpers/s3-fixture.js';
import type { S3Fixture } from './helpers/s3-fixture.js';

let fixture: S3Fixture;
beforeAll(async () => {
  fixture = await startS3Fixture();
});
afterEach(() => {
  fixture.proxy.clearFaults();
});
afterAll(async () => {
  await fixture.stop();
});

const decoder = new TextDecoder();

/** A backend with two attempts and a 1.5 s request timeout (generous for a loaded CI machine), on a fresh prefix holding `file.txt` = `before`. */
async function seeded(): Promise<{ backend: S3WorkspaceBackend; prefix: string; key: string }> {
  const prefix = `faults/${fixture.freshPrefix()}`;
  const backend = new S3WorkspaceBackend({ ...fixture.connection, bucket: TEST_BUCKET, prefix, maxAttempts: 2, requestTimeoutMs: 1500, searchEnabled: true });
  await backend.writeFile({ path: 'file.txt', content: 'before' });
  return { backend, prefix, key: `${prefix}/file.txt` };
}

async function failureOf(promise: Promise<unknown>): Promise<HostFailure> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!HostFailure.isHostFailure(error)) throw new Error(`expected a HostFailure, got ${String(error)}`);
  return error;
}

describe('S3WorkspaceBackend fault injection (through the proxy)', () => {
  it('500 on every attempt: a typed transport failure after the SDK retried, and the object is unchanged', async () => {
    const { backend, key } = await seeded();
    fixture.proxy.inject({ method: 'PUT', pathIncludes: key, fault: { kind: 'status', status: 500, code: 'InternalError' }, times: 10 });
    const failure = await failureOf(backend.writeFile({ path: 'file.txt', content: 'after' }));
    expect(failure.reason).toBe('Unavailable');
    expect(failure.details['errorKind']).toEqual({ type: 'transport', op: 's3:PutObject', message: 'InternalError (HTTP 500)' });
    expect(failure.details['attempts']).toBe(2);
    expect(await fixture.getText(key)).toBe('before');
  });

  it('503 SlowDown: a typed rate_limited failure, nothing written', async () => {
    const { backend, key } = await seeded();
    fixture.proxy.inject({ method: 'PUT', pathIncludes: key, fault: { kind: 'status', status: 503, code: 'SlowDown' }, times: 10 });
    const failure = await failureOf(backend.writeFile({ path: 'file.txt', content: 'after' }));
    expect(failure.details['errorKind']).toEqual({ type: 'rate_limited' });
    expect(await fixture.getText(key)).toBe('before');
  });

  it('the SDK retry mode absorbs one transient 503: the write lands on the second attempt', async () => {
    const { backend, key } = await seeded();
    fixture.proxy.inject({ method: 'PUT', pathIncludes: key, fault: { kind: 'status', status: 503, code: 'SlowDown' }, times: 1 });
    const before = fixture.proxy.requests.length;
    await backend.writeFile({ path: 'file.txt', content: 'after' });
    expect(fixture.proxy.requests.slice(before).filter((request) => request.method === 'PUT').map((request) => request.faulted)).toEqual([true, false]);
    expect(await fixture.getText(key)).toBe('after');
  });

  it('slow answers: a typed timeout for reads, and a timed-out write is never applied', async () => {
    const { backend, key } = await seeded();
    fixture.proxy.inject({ method: 'GET', pathIncludes: key, fault: { kind: 'slow', delayMs: 4000 }, times: 10 });
    const read = await failureOf(backend.readFile({ path: 'file.txt' }));
    expect(read.details['errorKind']).toEqual({ type: 'timeout', op: 's3:GetObject', duration_ms: 1500 });

    fixture.proxy.inject({ method: 'PUT', pathIncludes: key, fault: { kind: 'slow', delayMs: 4000 }, times: 10 });
    const write = await failureOf(backend.writeFile({ path: 'file.txt', content: 'after' }));
    expect(write.details['errorKind']).toMatchObject({ type: 'timeout' });
    // Every held request was dropped when its client gave up (none reached the store).
    expect(new Set(await fixture.proxy.slowOutcomes())).toEqual(new Set(['dropped']));
    expect(await fixture.getText(key)).toBe('before');
  });

  it('a connection cut in the middle of a request body: typed transport failure, nothing half-written', async () => {
    const { backend, key } = await seeded();
    const big = 'x'.repeat(256 * 1024);
    fixture.proxy.inject({ method: 'PUT', pathIncludes: key, fault: { kind: 'cut' }, times: 10 });
    const failure = await failureOf(backend.writeFile({ path: 'file.txt', content: big }));
    expect(failure.details['errorKind']).toMatchObject({ type: 'transport', op: 's3:PutObject' });
    expect(await fixture.getText(key)).toBe('before');
    fixture.proxy.clearFaults();
    expect(decoder.decode((await backend.readFile({ path: 'file.txt' }))?.content)).toBe('before');
  });

  it('a connection cut in the middle of a response body: typed transport failure, never a short file', async () => {
    const { backend, key } = await seeded();
    await backend.writeFile({ path: 'file.txt', content: 'y'.repeat(200_000) });
    fixture.proxy.inject({ method: 'GET', pathIncludes: key, fault: { kind: 'cut' }, times: 10 });
    const failure = await failureOf(backend.readFile({ path: 'file.txt' }));
    expect(failure.reason).toBe('Unavailable');
    expect(failure.details['errorKind']).toMatchObject({ type: 'transport', op: 's3:GetObject' });
  });

  it('a grep whose object reads fail reports the typed failure instead of partial results', async () => {
    const { backend, key } = await seeded();
    fixture.proxy.inject({ method: 'GET', pathIncludes: key, fault: { kind: 'status', status: 503, code: 'SlowDown' }, times: 10 });
    const failure = await failureOf(backend.search?.({ pattern: 'before', outputMode: 'content', limit: 10 }) ?? Promise.resolve());
    expect(failure.details['errorKind']).toEqual({ type: 'rate_limited' });
  });

  it('no failure message, detail or request leaks the secret access key', async () => {
    const secretAccessKey = 'S3RVER';
    const prefix = `faults/${fixture.freshPrefix()}`;
    // A wrong key id: s3rver refuses the signature; the message must not echo either credential.
    const backend = new S3WorkspaceBackend({ ...fixture.connection, accessKeyId: 'AKIAWRONGKEYID12345', secretAccessKey: 'wrong-secret-key-value', bucket: TEST_BUCKET, prefix, maxAttempts: 1 });
    const failure = await failureOf(backend.readFile({ path: 'x.txt' }));
    expect(failure.reason).toBe('PermissionDenied');
    const shown = JSON.stringify({ message: failure.message, details: failure.details, stack: failure.stack, cause: String(failure.cause) });
    expect(shown).not.toContain('wrong-secret-key-value');
    expect(shown).not.toContain('AKIAWRONGKEYID12345');
    expect(failure.cause).toBeUndefined();
    for (const request of fixture.proxy.requests) expect(JSON.stringify(request.headers)).not.toContain(secretAccessKey === 'S3RVER' ? 'wrong-secret-key-value' : secretAccessKey);
  });
});
