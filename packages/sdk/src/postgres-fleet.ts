import { CodeError } from '@a3s-lab/code-core';

import { assertPostgresInstalled, loadPostgres } from './load-postgres.js';
import type { PostgresFleet, PostgresFleetOptions } from './postgres-fleet-types.js';

/**
 * Opens a fleet of durable runs over one PostgreSQL database (`@a3s-lab/code-postgres`'s
 * `createFleet`, loaded on first use; a missing package fails with CONFIG_ERROR naming it):
 * `submit` queues a run of a session saved in the database, any process that calls `work()`
 * executes it, and a run whose worker dies resumes on another from its journal. Sessions are
 * created with `new PostgresSessionStore({ connectionString })` on the same database.
 *
 * @example
 * const fleet = await createFleet({ agent, connectionString: process.env.DATABASE_URL ?? '' });
 * const { runId } = await fleet.submit(session.id, 'Fix the failing test');
 * for await (const event of fleet.events(runId)) console.log(event.type);
 *
 * @throws CodeError CONFIG_ERROR for bad options or a missing `@a3s-lab/code-postgres`.
 */
export async function createFleet(options: PostgresFleetOptions): Promise<PostgresFleet> {
  if (typeof options !== 'object' || options === null) throw new CodeError('CONFIG_ERROR', 'createFleet needs options', { details: { field: 'options' } });
  if (typeof options.connectionString !== 'string' || options.connectionString.length === 0) {
    throw new CodeError('CONFIG_ERROR', 'createFleet needs connectionString (postgres://...)', { details: { field: 'connectionString' } });
  }
  assertPostgresInstalled();
  const module = await loadPostgres();
  return module.createFleet({ ...options });
}
