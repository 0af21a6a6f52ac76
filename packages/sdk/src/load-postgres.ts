import { createRequire } from 'node:module';

import { assertPackageInstalled, lazyOptionalPackage } from '@a3s-lab/code-core/util';
import type { OptionalPackage } from '@a3s-lab/code-core/util';
import type { SessionStore } from '@a3s-lab/code-core';

import type { FleetSchedulesHandleLike, FleetSchedulesOptionsLike, PostgresFleet, PostgresFleetOptions } from './postgres-fleet-types.js';
import type { PostgresSessionPage, PostgresSessionQuery, PostgresSessionStoreOptions } from './postgres-session-store-types.js';

/** The store class of `@a3s-lab/code-postgres` as the SDK uses it. */
export interface PostgresSessionStoreLike extends SessionStore {
  ready(): Promise<void>;
  listPage(query?: PostgresSessionQuery): Promise<PostgresSessionPage>;
  close(): Promise<void>;
}

/**
 * What the SDK uses of the `@a3s-lab/code-postgres` module, loaded on first use. Declared here
 * (the loaded module is checked against it where it is imported) so that no declaration of this
 * package names the optional package, `pg` or PGlite (the SDK's options are plain data; a host
 * with its own pool or PGlite instance uses `@a3s-lab/code-postgres` directly).
 */
export interface PostgresModule {
  readonly PostgresSessionStore: new (options: PostgresSessionStoreOptions) => PostgresSessionStoreLike;
  readonly createFleet: (options: PostgresFleetOptions) => Promise<PostgresFleet>;
  /** Method syntax: the module's takes its own `Fleet` class, which every `PostgresFleet` the SDK hands it is. */
  serveFleetSchedules(fleet: PostgresFleet, options: FleetSchedulesOptionsLike): Promise<FleetSchedulesHandleLike>;
}

/** The package that carries PostgreSQL support; installed only by users who need it. */
export const POSTGRES_PACKAGE: string = '@a3s-lab/code-postgres';

const POSTGRES_SUPPORT: OptionalPackage = { name: POSTGRES_PACKAGE, code: 'CONFIG_ERROR', neededBy: 'PostgreSQL support (PostgresSessionStore, createFleet, storage_backend = "postgres")' };

/**
 * Loads `@a3s-lab/code-postgres` (and with it `pg` / PGlite) the first time a Postgres store does
 * any work, so hosts that never use it never load it.
 *
 * @throws CodeError CONFIG_ERROR (`details.reason` `package_missing`) naming the package to install.
 */
export const loadPostgres: () => Promise<PostgresModule> = lazyOptionalPackage<PostgresModule>(POSTGRES_SUPPORT, () => import('@a3s-lab/code-postgres'));

/**
 * Checks, without loading it, that `@a3s-lab/code-postgres` is installed: a Postgres store
 * constructed without it fails at once, naming the package.
 *
 * @throws CodeError CONFIG_ERROR (`details.reason` `package_missing`).
 */
export function assertPostgresInstalled(resolve: (name: string) => string = createRequire(import.meta.url).resolve): void {
  assertPackageInstalled(POSTGRES_SUPPORT, resolve);
}
