// A vitest `globalSetup` file: one PostgreSQL server for a whole run (see postgresGlobalSetup).
// Named by path in a vitest config, e.g. packages/postgres/vitest.config.mjs.
export { postgresGlobalSetup as default } from './postgres-server.js';
