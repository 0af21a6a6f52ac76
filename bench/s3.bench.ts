// S3 backend benchmark: read / write / list / compare-and-swap edit through S3WorkspaceBackend
// versus the raw @aws-sdk/client-s3 client sending the SAME requests (same ranges, metadata and
// conditions) to the same s3rver (behind the enforcing conditional-write proxy of the tests), in
// alternating rounds of the same run; and save/load of a session snapshot through S3SessionStore
// versus a raw PutObject/GetObject + JSON.parse of the same document. Prints median ms per
// operation and throughput ratios (backend ops/s over raw ops/s). Target: >= 0.9x.
//
// Run: node --expose-gc --conditions=@a3s-lab/source --import tsx bench/s3.bench.ts
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';

import { GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';

import { createAgentEvent, parseSessionSnapshotText, serializeSessionSnapshot } from '../packages/core/src/index.js';
import type { SessionSnapshotV1 } from '../packages/core/src/index.js';
import { sampleSessionSnapshot } from '../packages/core/src/testing/index.js';
import { S3SessionStore, S3WorkspaceBackend } from '../packages/s3/src/index.js';
import { ConditionalS3Proxy, S3RVER_ACCESS_KEY_ID, S3RVER_SECRET_ACCESS_KEY, startS3rver } from '../packages/testing/src/s3/index.js';

const BUCKET = 'bench';
const ROUNDS = 7;
const OPS = 40;
const FILE_BYTES = 16 * 1024;

const server = await startS3rver([BUCKET]);
const proxy = await ConditionalS3Proxy.start(server.endpoint);
const connection = { endpoint: proxy.endpoint, region: 'us-east-1', forcePathStyle: true, accessKeyId: S3RVER_ACCESS_KEY_ID, secretAccessKey: S3RVER_SECRET_ACCESS_KEY };
// The same client settings the backend builds (retry mode, checksums only when required).
const raw = new S3Client({
  endpoint: proxy.endpoint,
  region: 'us-east-1',
  forcePathStyle: true,
  credentials: { accessKeyId: S3RVER_ACCESS_KEY_ID, secretAccessKey: S3RVER_SECRET_ACCESS_KEY },
  retryMode: 'standard',
  maxAttempts: 3,
  requestHandler: { requestTimeout: 30_000, connectionTimeout: 5_000, throwOnRequestTimeout: true },
  requestChecksumCalculation: 'WHEN_REQUIRED',
  responseChecksumValidation: 'WHEN_REQUIRED',
});
const backend = new S3WorkspaceBackend({ ...connection, bucket: BUCKET, prefix: 'ws' });
const store = new S3SessionStore({ ...connection, bucket: BUCKET, prefix: 'sessions' });
const body = randomBytes(FILE_BYTES);
const MAX_READ = 32 * 1024 * 1024;

for (let index = 0; index < 50; index += 1) await backend.writeFile({ path: `dir/f${String(index).padStart(2, '0')}.bin`, content: body });
await backend.writeFile({ path: 'read.bin', content: body });

type Op = (index: number) => Promise<unknown>;
const rawVersion = async (key: string): Promise<{ etag: string; rev: string | undefined }> => {
  const head = await raw.send(new HeadObjectCommand({ Bucket: BUCKET, Key: key }));
  return { etag: head.ETag ?? '', rev: head.Metadata?.['a3s-rev'] };
};

const pairs: { name: string; backend: Op; raw: Op }[] = [
  {
    name: 'read 16 KiB',
    backend: () => backend.readFile({ path: 'read.bin' }),
    raw: async () => (await raw.send(new GetObjectCommand({ Bucket: BUCKET, Key: 'ws/read.bin', Range: `bytes=0-${MAX_READ}` }))).Body?.transformToByteArray(),
  },
  {
    name: 'write 16 KiB',
    backend: (index) => backend.writeFile({ path: `w/${index % 8}.bin`, content: body }),
    raw: (index) => raw.send(new PutObjectCommand({ Bucket: BUCKET, Key: `ws/w/${index % 8}.bin`, Body: body, ContentLength: body.byteLength, Metadata: { 'a3s-rev': randomBytes(9).toString('base64url') } })),
  },
  {
    name: 'list 50 entries',
    backend: () => backend.list({ path: 'dir', limit: 100 }),
    raw: () => raw.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: 'ws/dir/', MaxKeys: 101 })),
  },
  {
    // read, then a compare-and-swap write: GET + HEAD + PUT If-Match on both sides.
    name: 'edit (read + CAS write)',
    backend: async () => {
      const file = await backend.readFile({ path: 'edit.bin' });
      await backend.writeFile({ path: 'edit.bin', content: body, expectedVersion: file?.version ?? null });
    },
    raw: async () => {
      const got = await raw.send(new GetObjectCommand({ Bucket: BUCKET, Key: 'ws/edit.bin', Range: `bytes=0-${MAX_READ}` }));
      await got.Body?.transformToByteArray();
      const current = await rawVersion('ws/edit.bin');
      await raw.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'ws/edit.bin', Body: body, ContentLength: body.byteLength, IfMatch: current.etag, Metadata: { 'a3s-rev': randomBytes(9).toString('base64url') } }));
    },
  },
];
await backend.writeFile({ path: 'edit.bin', content: body });

/** A snapshot of ~0.5 MB: the sample session with 4,000 events in its run. */
function benchSnapshot(generation: number): SessionSnapshotV1 {
  const base = sampleSessionSnapshot('bench-session', generation);
  const run = base.runs[0];
  if (run === undefined) throw new Error('sample has a run');
  const events = Array.from({ length: 4000 }, (_, index) =>
    createAgentEvent('text_delta', { text: `token ${index} ${'y'.repeat(60)}` }, { run_id: 'run_1', session_id: 'bench-session', sequence: index + 1, timestamp_ms: 1_700_000_000_000 + index }),
  );
  return { ...base, runs: [{ ...run, events, record: { ...run.record, lastSequence: events.length } }] };
}
let generation = 0;
await store.save(benchSnapshot((generation += 1)));
let rawEtag = (await raw.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'raw-sessions/bench-session.json', Body: serializeSessionSnapshot(benchSnapshot(1)), IfNoneMatch: '*' }))).ETag ?? '';
const snapshotBytes = serializeSessionSnapshot(benchSnapshot(1)).length;
pairs.push(
  {
    name: `session save (${(snapshotBytes / 1e6).toFixed(2)} MB)`,
    backend: () => store.save(benchSnapshot((generation += 1))),
    raw: async () => {
      const output = await raw.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'raw-sessions/bench-session.json', Body: serializeSessionSnapshot(benchSnapshot(generation)), ContentType: 'application/json', IfMatch: rawEtag }));
      rawEtag = output.ETag ?? '';
    },
  },
  {
    name: 'session load',
    backend: () => store.load('bench-session'),
    raw: async () => {
      const output = await raw.send(new GetObjectCommand({ Bucket: BUCKET, Key: 'raw-sessions/bench-session.json' }));
      return parseSessionSnapshotText((await output.Body?.transformToString('utf8')) ?? '', { store: 'raw', sessionId: 'bench-session' });
    },
  },
);

async function timeOps(op: Op, count: number): Promise<number> {
  const start = performance.now();
  for (let index = 0; index < count; index += 1) await op(index);
  return (performance.now() - start) / count;
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

console.log(`S3 backend vs raw @aws-sdk/client-s3 (s3rver 3.7.1 behind the conditional proxy on 127.0.0.1), ${ROUNDS} alternating rounds x ${OPS} ops, median ms/op`);
console.log('operation                          backend ms   raw ms   throughput ratio (target >= 0.9x)');
let failed = false;
for (const pair of pairs) {
  const count = pair.name.startsWith('session') ? OPS / 4 : OPS;
  await timeOps(pair.backend, 5);
  await timeOps(pair.raw, 5);
  const backendTimes: number[] = [];
  const rawTimes: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    (globalThis as { gc?: () => void }).gc?.();
    if (round % 2 === 0) {
      backendTimes.push(await timeOps(pair.backend, count));
      rawTimes.push(await timeOps(pair.raw, count));
    } else {
      rawTimes.push(await timeOps(pair.raw, count));
      backendTimes.push(await timeOps(pair.backend, count));
    }
  }
  const b = median(backendTimes);
  const r = median(rawTimes);
  const ratio = r / b;
  if (ratio < 0.9) failed = true;
  console.log(`${pair.name.padEnd(34)} ${b.toFixed(2).padStart(10)} ${r.toFixed(2).padStart(8)}   ${ratio.toFixed(2)}x${ratio < 0.9 ? '  (below target)' : ''}`);
}
if (failed) console.log('note: a ratio below 0.9x on a loaded machine: rerun before reading it as a regression');

await backend.close();
await store.close();
raw.destroy();
await proxy.close();
await server.stop();
