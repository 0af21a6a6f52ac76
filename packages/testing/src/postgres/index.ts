// PostgreSQL test harness of @a3s-lab/code-testing (the `/postgres` subpath): a real PostgreSQL
// server (Debian's `postgresql` package: initdb/postgres/psql) in a temp directory on 127.0.0.1,
// a fresh database per caller. Needs no npm package. Exports are listed by name.
export { POSTGRES_URL_ENV, postgresBinDir, postgresGlobalSetup, startPostgres, startPostgresServer } from './postgres-server.js';
export type { PostgresDatabase, PostgresServer } from './postgres-server.js';
