// One real PostgreSQL 15 server for the whole run of this package's tests (see @a3s-lab/code-testing/postgres).
export { postgresGlobalSetup as default } from '@a3s-lab/code-testing/postgres';
