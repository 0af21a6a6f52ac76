// Sessions kept in PostgreSQL through the public SDK: an ACL with storage_backend = "postgres",
// Agent.create, a session running turns against the scripted model, a second agent (a new host)
// resuming it by id from the database; the optional package loaded lazily and named when missing.
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedModelServer, textResponse, toolCallResponse } from '@a3s-lab/code-testing';
import { startPostgres } from '@a3s-lab/code-testing/postgres';
import type { PostgresDatabase } from '@a3s-lab/code-testing/postgres';

import { Agent, HostFailure, PostgresSessionStore } from '../src/index.js';
import { POSTGRES_PACKAGE, assertPostgresInstalled } from '../src/load-postgres.js';
import { aclFor } from './harness.js';

// Trust auth accepts any password: the URL carries one so that its redaction is checked.
const PASSWORD = 'pg-Secret-Value-4711';
let database: PostgresDatabase;
let workspace: string;
beforeAll(async () => {
  database = await startPostgres();
  workspace = realpathSync(mkdtempSync(join(tmpdir(), 'a3s-sdk-pg-')));
  writeFileSync(join(workspace, 'notes.txt'), `the plan: ship it\ndatabase password: ${PASSWORD}\n`);
});
afterAll(async () => {
  await database.stop();
  rmSync(workspace, { recursive: true, force: true });
});

const postgresBlock = 'storage_backend = "postgres"\npostgres { url = env("DATABASE_URL") }';

describe('storage_backend = "postgres" through @a3s-lab/code', () => {
  it('an agent created from the ACL persists its session in Postgres; another agent resumes it by id and continues the conversation', async () => {
    const model = await startScriptedModelServer({
      scenario: [toolCallResponse('read', { file_path: 'notes.txt' }), textResponse('The plan is to ship it.'), textResponse('Shipping, as planned.')],
    });
    try {
      const env = { DATABASE_URL: database.connectionString.replace('postgres@', `postgres:${PASSWORD}@`) };
      const hostA = await Agent.create(aclFor(model, 'anthropic', postgresBlock), { env });
      expect(hostA.sessionStore).toBeInstanceOf(PostgresSessionStore);
      expect(hostA.sessionStore.name).toBe(`postgres://postgres@127.0.0.1:${database.port}/${database.database}`);
      const session = await hostA.sessionAsync(workspace, { sessionId: 'pg-session', autoSave: true });
      session.setLabel('owner', 'alice');
      const first = await session.send('What is the plan in notes.txt?');
      expect(first.text).toBe('The plan is to ship it.');
      await session.closeAsync();
      await hostA.close();

      const hostB = await Agent.create(aclFor(model, 'anthropic', postgresBlock), { env });
      const store = hostB.sessionStore as PostgresSessionStore;
      const page = await store.listPage({ owner: 'alice' });
      expect(page.entries.map((entry) => entry.sessionId)).toEqual(['pg-session']);
      expect(page.entries[0]?.generation).toBeGreaterThanOrEqual(1);
      const resumed = await hostB.resumeSessionAsync('pg-session');
      expect(resumed.labels()).toMatchObject({ owner: 'alice' });
      const second = await resumed.send('Go on.');
      expect(second.text).toBe('Shipping, as planned.');
      // The new host's request carried the first host's conversation, tool result included, loaded from Postgres.
      const last = JSON.stringify(model.requests.at(-1)?.body);
      for (const part of ['What is the plan in notes.txt?', 'the plan: ship it', 'The plan is to ship it.', 'Go on.']) expect(last).toContain(part);
      expect((await resumed.runs()).length).toBe(2);
      // The URL's password is a secret of the agent: the file's copy of it never reached the model.
      expect(JSON.stringify(model.requests.map((request) => request.body))).not.toContain(PASSWORD);
      expect(JSON.stringify(resumed.snapshot())).not.toContain(PASSWORD);
      await resumed.closeAsync();

      // A host still holding the first generation cannot overwrite the newer one.
      const stale = new PostgresSessionStore({ connectionString: database.connectionString });
      const snapshot = await stale.load('pg-session');
      const other = new PostgresSessionStore({ connectionString: database.connectionString });
      await other.load('pg-session');
      if (snapshot === null) throw new Error('the session was not saved');
      await other.save({ ...snapshot, generation: snapshot.generation + 1 });
      const conflict = await stale.save({ ...snapshot, generation: snapshot.generation + 1 }).catch((error: unknown) => error);
      expect(HostFailure.isHostFailure(conflict) && conflict.reason).toBe('Conflict');
      await Promise.all([stale.close(), other.close(), hostB.close()]);
    } finally {
      await model.close();
    }
  });

  it('refuses the ACL without a url, and names the package when @a3s-lab/code-postgres is not installed', async () => {
    const model = await startScriptedModelServer({ scenario: [] });
    try {
      await expect(Agent.create(aclFor(model, 'anthropic', 'storage_backend = "postgres"'))).rejects.toMatchObject({ code: 'CONFIG_ERROR', message: expect.stringContaining('postgres { url') });
    } finally {
      await model.close();
    }
    const missing = (name: string): string => {
      throw Object.assign(new Error(`Cannot find module '${name}'`), { code: 'MODULE_NOT_FOUND' });
    };
    let error: unknown;
    try {
      assertPostgresInstalled(missing);
    } catch (caught) {
      error = caught;
    }
    expect(error).toMatchObject({ code: 'CONFIG_ERROR', details: { reason: 'package_missing', package: POSTGRES_PACKAGE } });
    expect((error as Error).message).toContain(`npm install ${POSTGRES_PACKAGE}`);
    expect(() => assertPostgresInstalled()).not.toThrow();
  });
});
