import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedModelServer, textResponse, toolCallResponse } from '@a3s-lab/code-testing';
import type { ScriptedModelServer } from '@a3s-lab/code-testing';
import { ConditionalS3Proxy, S3RVER_ACCESS_KEY_ID, S3RVER_SECRET_ACCESS_KEY, startS3rver } from '@a3s-lab/code-testing/s3';
import type { S3rverProcess } from '@a3s-lab/code-testing/s3';

import { Agent, S3SessionStore, S3WorkspaceBackend } from '../src/index.js';
import type { AgentEvent } from '../src/index.js';
import { S3_PACKAGE, assertS3Installed } from '../src/load-s3.js';
import { aclFor } from './harness.js';

const here = dirname(fileURLToPath(import.meta.url));
let s3: S3rverProcess;
let proxy: ConditionalS3Proxy;
let model: ScriptedModelServer;
let counter = 0;
const fresh = (label: string): string => `${label}-${(counter += 1)}-${process.pid}`;

beforeAll(async () => {
  s3 = await startS3rver(['workspace', 'sessions']);
  proxy = await ConditionalS3Proxy.start(s3.endpoint);
  model = await startScriptedModelServer({ scenario: [] });
});
afterEach(() => {
  proxy.clearFaults();
});
afterAll(async () => {
  await model.close();
  await proxy.close();
  await s3.stop();
});

const connection = () => ({ endpoint: proxy.endpoint, region: 'us-east-1', accessKeyId: S3RVER_ACCESS_KEY_ID, secretAccessKey: S3RVER_SECRET_ACCESS_KEY, forcePathStyle: true });
const s3Block = (prefix: string) => `storage_backend = "s3"
s3 {
  region = "us-east-1"
  endpoint = "${proxy.endpoint}"
  access_key_id = "${S3RVER_ACCESS_KEY_ID}"
  secret_access_key = "${S3RVER_SECRET_ACCESS_KEY}"
  force_path_style = true
  bucket = "sessions"
  prefix = "${prefix}"
}`;

describe('S3 workspaces through @a3s-lab/code', () => {
  it('runs the S3 sample of the spec', async () => {
    const agent = await Agent.create(aclFor(model, 'anthropic'));
    // --- the spec sample (endpoint and credentials of the local s3rver) ---
    const session = agent.session('s3://workspace/users/u1/sessions/s1', {
      workspaceBackend: new S3WorkspaceBackend({
        endpoint: proxy.endpoint, // omit for AWS S3
        region: 'us-east-1',
        accessKeyId: S3RVER_ACCESS_KEY_ID,
        secretAccessKey: S3RVER_SECRET_ACCESS_KEY,
        bucket: 'workspace',
        prefix: 'users/u1/sessions/s1',
        forcePathStyle: true, // true for MinIO/RustFS/R2
      }),
    });

    await session.writeFile('notes/hello.txt', 'one\ntwo\n');
    const whole = await session.readFile('notes/hello.txt');
    const window = await session.readFile('notes/hello.txt', { offset: 1, limit: 1 });
    const listing = await session.ls('notes');
    // --- end of the sample ---
    expect(whole).toBe('one\ntwo\n');
    expect(window).toBe('two\n');
    expect(listing.exitCode).toBe(0);
    expect(listing.output).toContain('hello.txt');
    expect(session.toolNames()).toEqual(expect.arrayContaining(['read', 'write', 'edit', 'patch', 'ls']));
    for (const hidden of ['bash', 'git', 'grep', 'glob']) expect(session.toolNames()).not.toContain(hidden);
    const edited = await session.editFile('notes/hello.txt', 'one', 'uno');
    expect(edited.exitCode).toBe(0);
    expect(await session.readFile('notes/hello.txt')).toBe('uno\ntwo\n');
    await agent.close();
  });

  it('offers grep and glob with searchEnabled, truncation reported by the tools', async () => {
    const agent = await Agent.create(aclFor(model, 'anthropic'));
    const backend = new S3WorkspaceBackend({ ...connection(), bucket: 'workspace', prefix: fresh('search'), searchEnabled: true, maxObjectsScanned: 2 });
    const session = await agent.sessionAsync('s3://workspace/search', { workspaceBackend: backend });
    expect(session.toolNames()).toEqual(expect.arrayContaining(['grep', 'glob']));
    for (const name of ['a', 'b', 'c']) await session.writeFile(`src/${name}.ts`, `export const ${name} = 'needle';\n`);
    const result = await session.tool('grep', { pattern: 'needle', output_mode: 'files_with_matches' });
    expect(result.exitCode).toBe(0);
    expect(result.metadata?.['search']).toMatchObject({ truncated: true });
    await agent.close();
  });

  it('turns S3 faults into typed tool errors: rate_limited, transport, timeout', async () => {
    const agent = await Agent.create(aclFor(model, 'anthropic'));
    const prefix = fresh('faults');
    const backend = new S3WorkspaceBackend({ ...connection(), bucket: 'workspace', prefix, maxAttempts: 1, requestTimeoutMs: 1500 });
    const session = await agent.sessionAsync('s3://workspace/faults', { workspaceBackend: backend });
    await session.writeFile('f.txt', 'content\n');
    const key = `/workspace/${prefix}/f.txt`;
    proxy.inject({ method: 'GET', pathIncludes: key, fault: { kind: 'status', status: 503, code: 'SlowDown' }, times: 1 });
    expect((await session.tool('read', { file_path: 'f.txt' })).errorKind).toEqual({ type: 'rate_limited' });
    proxy.inject({ method: 'PUT', pathIncludes: key, fault: { kind: 'status', status: 500, code: 'InternalError' }, times: 1 });
    expect((await session.tool('write', { file_path: 'f.txt', content: 'changed\n' })).errorKind).toMatchObject({ type: 'transport', op: 's3:PutObject' });
    proxy.inject({ method: 'GET', pathIncludes: key, fault: { kind: 'slow', delayMs: 4000 }, times: 1 });
    expect((await session.tool('read', { file_path: 'f.txt' })).errorKind).toMatchObject({ type: 'timeout', op: 's3:GetObject' });
    expect(await session.readFile('f.txt')).toBe('content\n');
    await agent.close();
  });

  it('never shows S3 credentials in errors, events, snapshots or artifacts', async () => {
    const agent = await Agent.create(aclFor(model, 'anthropic'));
    const keyId = 'AKIAEXAMPLEWRONGKEY7';
    const secret = 'wJalrXUtnFEMI-K7MDENG-bPxRfiCYEXAMPLEKEY';
    const backend = new S3WorkspaceBackend({ ...connection(), accessKeyId: keyId, secretAccessKey: secret, bucket: 'workspace', prefix: fresh('creds'), maxAttempts: 1 });
    const session = await agent.sessionAsync('s3://workspace/creds', { workspaceBackend: backend });
    const events: AgentEvent[] = [];
    session.onEvent((event) => events.push(event));
    const read = await session.tool('read', { file_path: 'x.txt' });
    expect(read.errorKind).toMatchObject({ type: 'permission_denied' });
    const write = await session.tool('write', { file_path: 'x.txt', content: 'x' });
    expect(write.exitCode).not.toBe(0);
    const everything = JSON.stringify({ read, write, events, snapshot: session.snapshot(), runs: await session.runs() });
    expect(everything).not.toContain(secret);
    expect(everything).not.toContain(keyId);
    await agent.close();
  });

  it('opens an s3:// workspace from the config s3 block and stores the session on S3 (storage_backend = "s3")', async () => {
    const prefix = fresh('cfg');
    const agent = await Agent.create(aclFor(model, 'anthropic', s3Block(prefix)));
    expect(agent.sessionStore).toBeInstanceOf(S3SessionStore);
    expect(agent.sessionStore.name).toBe(`s3://sessions/${prefix}`);
    const session = await agent.sessionAsync(`s3://workspace/${prefix}/ws`, { sessionId: 'cfg-session' });
    await session.writeFile('a.txt', 'from config\n');
    await session.save();
    const other = new S3WorkspaceBackend({ ...connection(), bucket: 'workspace', prefix: `${prefix}/ws` });
    expect(new TextDecoder().decode((await other.readFile({ path: 'a.txt' }))?.content)).toBe('from config\n');
    expect((await agent.sessionStore.list()).map((entry) => entry.sessionId)).toEqual(['cfg-session']);
    await other.close();
    await agent.close();
  });

  it('refuses an s3:// workspace without a backend or an s3 block', async () => {
    const agent = await Agent.create(aclFor(model, 'anthropic'));
    expect(() => agent.session('s3://workspace/x')).toThrow(expect.objectContaining({ code: 'SESSION_CONFIGURATION_ERROR', message: expect.stringContaining('s3 {') }));
    await agent.close();
  });

  it('importing @a3s-lab/code loads neither @a3s-lab/code-s3 nor the AWS SDK until an S3 backend is used (built SDK)', async () => {
    const script = `
      import { createRequire } from 'node:module';
      const { S3WorkspaceBackend } = await import('@a3s-lab/code');
      const loaded = () => Object.keys(createRequire(import.meta.url).cache).some((path) => path.includes('@aws-sdk'));
      const before = loaded();
      const backend = new S3WorkspaceBackend({ region: 'us-east-1', bucket: 'workspace', prefix: 'p', accessKeyId: 'k', secretAccessKey: 's' });
      const afterConstruct = loaded();
      await backend.resolvePath({ path: 'a.txt' });
      process.stdout.write(JSON.stringify({ before, afterConstruct, afterUse: loaded() }));
      await backend.close();
    `;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { cwd: here, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code, stderr).toBe(0);
    expect(JSON.parse(stdout)).toEqual({ before: false, afterConstruct: false, afterUse: true });
  });

  it('names the package when @a3s-lab/code-s3 is not installed', () => {
    const missing = (name: string): string => {
      throw Object.assign(new Error(`Cannot find module '${name}'`), { code: 'MODULE_NOT_FOUND' });
    };
    let error: unknown;
    try {
      assertS3Installed(missing);
    } catch (caught) {
      error = caught;
    }
    expect(error).toMatchObject({ code: 'CONFIG_ERROR', details: { reason: 'package_missing', package: S3_PACKAGE } });
    expect((error as Error).message).toContain(`npm install ${S3_PACKAGE}`);
    // Installed here: construction passes the check without loading the package.
    expect(() => assertS3Installed()).not.toThrow();
  });

  it('a bad option fails the first call with CONFIG_ERROR naming the field', async () => {
    const backend = new S3WorkspaceBackend({ ...connection(), bucket: 'workspace', prefix: 'a/../b' });
    await expect(backend.readFile({ path: 'x' })).rejects.toMatchObject({ code: 'CONFIG_ERROR', details: { field: 'prefix' } });
  });
});

interface HostOutput {
  readonly lines: Record<string, unknown>[];
  readonly code: number | null;
  readonly stderr: string;
}

/** Runs the host fixture (the built SDK); `ready` resolves when it printed `ready`, `go()` lets it continue. */
function host(args: readonly string[]): { done: Promise<HostOutput>; ready: Promise<void>; go(): void } {
  const child = spawn(process.execPath, [join(here, 'fixtures', 's3-host.mjs'), ...args], { cwd: here, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => {
    markReady = resolve;
  });
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
    if (stdout.includes('"ready":true')) markReady();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const done = new Promise<HostOutput>((resolve) => {
    child.on('close', (code) => {
      const lines = stdout
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      resolve({ lines, code, stderr });
    });
  });
  return { done, ready, go: () => child.stdin.end('go\n') };
}

describe('two hosts sharing sessions on S3 (built SDK in child processes)', () => {
  it('host A creates a session on S3 and runs a turn; host B resumes it by id and continues; then both edit one file and exactly one wins', async () => {
    const prefix = fresh('hosts');
    const sessionId = 'shared-session';
    const workspace = `s3://workspace/${prefix}/ws`;
    const scripted = await startScriptedModelServer({
      scenario: [
        toolCallResponse('write', { file_path: 'notes/plan.md', content: 'step: draft\n' }),
        textResponse('Host A wrote the plan.'),
        textResponse('Host B continues the plan.'),
      ],
    });
    try {
      const acl = aclFor(scripted, 'anthropic', s3Block(prefix));
      const a = await host([acl, 'create', workspace, sessionId, 'Write the plan']).done;
      expect(a.code, a.stderr).toBe(0);
      expect(a.lines[0]).toMatchObject({ text: 'Host A wrote the plan.', root: workspace, store: `s3://sessions/${prefix}` });

      const b = await host([acl, 'resume', sessionId, 'Continue the plan']).done;
      expect(b.code, b.stderr).toBe(0);
      expect(b.lines[0]).toMatchObject({ text: 'Host B continues the plan.', file: 'step: draft\n' });
      expect((b.lines[0]?.['after'] as number) - (b.lines[0]?.['before'] as number)).toBe(2);
      // Host B's model request carried host A's conversation, loaded from S3.
      const last = JSON.stringify(scripted.requests.at(-1)?.body);
      expect(last).toContain('Write the plan');
      expect(last).toContain('Host A wrote the plan.');

      // Both hosts resume the same generation and edit the same file at the same moment; the
      // proxy holds their PUTs so both have read the same version before either lands.
      const key = `/workspace/${prefix}/ws/notes/plan.md`;
      proxy.inject({ method: 'PUT', pathIncludes: key, fault: { kind: 'slow', delayMs: 5000 }, times: 2 });
      const editors = [host([acl, 'edit', sessionId, 'draft', 'final by one']), host([acl, 'edit', sessionId, 'draft', 'final by two'])];
      await Promise.all(editors.map((editor) => editor.ready));
      for (const editor of editors) editor.go();
      const results = await Promise.all(editors.map((editor) => editor.done));
      for (const result of results) expect(result.code, result.stderr).toBe(0);
      const outcomes = results.map((result) => result.lines.find((line) => 'exitCode' in line) ?? {});
      const winners = outcomes.filter((outcome) => outcome['exitCode'] === 0);
      const losers = outcomes.filter((outcome) => outcome['exitCode'] !== 0);
      expect(winners).toHaveLength(1);
      expect(losers).toHaveLength(1);
      expect(losers[0]?.['errorKind']).toMatchObject({ type: 'version_conflict', path: 'notes/plan.md' });
      const winner = outcomes.indexOf(winners[0] ?? {}) === 0 ? 'one' : 'two';
      const check = new S3WorkspaceBackend({ ...connection(), bucket: 'workspace', prefix: `${prefix}/ws` });
      expect(new TextDecoder().decode((await check.readFile({ path: 'notes/plan.md' }))?.content)).toBe(`step: final by ${winner}\n`);
      await check.close();
      // Their session saves raced too: exactly one published, the other got a typed conflict.
      expect(outcomes.map((outcome) => outcome['saved']).sort()).toEqual(['IO_ERROR:Conflict', 'saved']);
    } finally {
      await scripted.close();
    }
  }, 120_000);
});
