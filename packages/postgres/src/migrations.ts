import { CodeError } from '@a3s-lab/code-core';

import type { Database } from './database.js';
import { FLEET_MIGRATIONS } from './fleet/fleet-migrations.js';
import type { Migration } from './migration.js';

export type { Migration } from './migration.js';

/** The session store's tables. */
export const STORE_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'sessions',
    up: `
CREATE TABLE a3s_sessions (
  session_id text COLLATE "C" PRIMARY KEY,
  document text NOT NULL,
  revision bigint NOT NULL DEFAULT 1,
  generation bigint,
  labels jsonb NOT NULL DEFAULT '{}'::jsonb,
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX a3s_sessions_labels ON a3s_sessions USING gin (labels jsonb_path_ops);
CREATE INDEX a3s_sessions_owner ON a3s_sessions ((labels ->> 'owner'), session_id);
`,
  },
];

/** Every migration of the package, in version order: the store's, then the fleet's. */
export const MIGRATIONS: readonly Migration[] = [...STORE_MIGRATIONS, ...FLEET_MIGRATIONS].sort((a, b) => a.version - b.version);

/** Key of the advisory lock migrations run under (any constant of our own; `a3s` + `mig`). */
const MIGRATION_LOCK_KEY = 0x0a35_3316;

/**
 * Applies every migration of `migrations` not yet recorded in `schema_migrations`, in version
 * order, each in one transaction holding `pg_advisory_xact_lock`: several processes starting at
 * once apply each version exactly once (the others wait, then see it recorded). Idempotent.
 *
 * @returns the versions this call applied.
 * @throws CodeError CONFIG_ERROR for duplicate or invalid versions; the database's error when a script fails (that version is not recorded).
 */
export async function migrate(db: Database, migrations: readonly Migration[] = MIGRATIONS): Promise<number[]> {
  const ordered = checkMigrations(migrations);
  // Under the lock too: two processes creating the table at once would collide on the catalog.
  await db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
    await tx.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())');
  });
  const applied: number[] = [];
  const recorded = await recordedVersions(db);
  for (const migration of ordered) {
    if (recorded.has(migration.version)) continue;
    const ran = await db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
      const seen = await tx.query('SELECT 1 FROM schema_migrations WHERE version = $1', [migration.version]);
      if (seen.rows.length > 0) return false;
      await tx.exec(migration.up);
      await tx.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [migration.version, migration.name]);
      return true;
    });
    if (ran) applied.push(migration.version);
  }
  return applied;
}

async function recordedVersions(db: Database): Promise<Set<number>> {
  const result = await db.query<{ version: number }>('SELECT version FROM schema_migrations');
  return new Set(result.rows.map((row) => Number(row.version)));
}

function checkMigrations(migrations: readonly Migration[]): Migration[] {
  const seen = new Set<number>();
  for (const migration of migrations) {
    if (!Number.isSafeInteger(migration.version) || migration.version <= 0 || seen.has(migration.version)) {
      throw new CodeError('CONFIG_ERROR', `migration ${JSON.stringify(migration.name)} has an invalid or duplicate version ${String(migration.version)}`, { details: { field: 'version', version: migration.version } });
    }
    seen.add(migration.version);
  }
  return [...migrations].sort((a, b) => a.version - b.version);
}
