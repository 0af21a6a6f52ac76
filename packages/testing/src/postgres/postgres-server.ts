import { execFileSync, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A database of its own on a running PostgreSQL server. */
export interface PostgresDatabase {
  /** `postgresql://postgres@127.0.0.1:<port>/<database>` (trust auth: no password). */
  readonly connectionString: string;
  readonly port: number;
  readonly database: string;
  /** Drops the database (and stops the server when this process started it and nothing else uses it). Idempotent. */
  stop(): Promise<void>;
}

/** The environment variable naming a server to use instead of starting one (set by {@link postgresGlobalSetup} or CI). */
export const POSTGRES_URL_ENV = 'A3S_TEST_POSTGRES_URL';

/** A PostgreSQL server this process started. */
export interface PostgresServer {
  readonly port: number;
  /** Fast shutdown, then the data directory is removed. */
  stop(): Promise<void>;
}

let shared: { server: Promise<PostgresServer>; users: number } | null = null;
let counter = 0;

/**
 * A fresh, empty database on a real PostgreSQL server: the one on 127.0.0.1 at the port of
 * `A3S_TEST_POSTGRES_URL` when set (one server for a whole vitest run, see
 * {@link postgresGlobalSetup}), otherwise one server per process, started on first use
 * ({@link startPostgresServer}) and stopped when the last database of it is stopped.
 */
export async function startPostgres(): Promise<PostgresDatabase> {
  const external = process.env[POSTGRES_URL_ENV];
  const name = `a3s_${process.pid}_${Date.now().toString(36)}_${(counter += 1)}`;
  if (external !== undefined && external !== '') {
    const url = new URL(external);
    const port = Number(url.port || '5432');
    await adminQuery(port, `CREATE DATABASE ${name}`);
    return databaseHandle(port, name, () => adminQuery(port, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  }
  shared ??= { server: startPostgresServer(), users: 0 };
  const entry = shared;
  entry.users += 1;
  let server: PostgresServer;
  try {
    server = await entry.server;
    await adminQuery(server.port, `CREATE DATABASE ${name}`);
  } catch (error) {
    await release(entry);
    throw error;
  }
  return databaseHandle(server.port, name, async () => {
    await adminQuery(server.port, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
    await release(entry);
  });
}

async function release(entry: { server: Promise<PostgresServer>; users: number }): Promise<void> {
  entry.users -= 1;
  if (entry.users > 0) return;
  if (shared === entry) shared = null;
  await (await entry.server.catch(() => null))?.stop();
}

function databaseHandle(port: number, database: string, drop: () => Promise<void>): PostgresDatabase {
  let stopped: Promise<void> | null = null;
  return {
    connectionString: `postgresql://postgres@127.0.0.1:${port}/${database}`,
    port,
    database,
    stop: () => (stopped ??= drop()),
  };
}

/**
 * Vitest `globalSetup` body: starts one server for the whole run, publishes it in
 * `A3S_TEST_POSTGRES_URL` (test workers inherit it, each test takes a database of its own with
 * {@link startPostgres}) and returns the teardown.
 *
 * @example
 * // test/global-setup.ts
 * export { postgresGlobalSetup as default } from '@a3s-lab/code-testing/postgres';
 */
export async function postgresGlobalSetup(): Promise<() => Promise<void>> {
  if (process.env[POSTGRES_URL_ENV]) return async () => undefined;
  const server = await startPostgresServer();
  process.env[POSTGRES_URL_ENV] = `postgresql://postgres@127.0.0.1:${server.port}/postgres`;
  return async () => {
    delete process.env[POSTGRES_URL_ENV];
    await server.stop();
  };
}

/** Where `initdb` and `postgres` are: Debian's newest `/usr/lib/postgresql/<n>/bin`, else `null` (on PATH). */
export function postgresBinDir(): string | null {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((entry) => /^\d+$/.test(entry) && existsSync(join(root, entry, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? null : join(root, versions[0], 'bin');
}

const bin = (dir: string | null, name: string): string => (dir === null ? name : join(dir, name));

/**
 * Starts a throwaway PostgreSQL server: `initdb` into a temp directory (as the `postgres` user
 * through `runuser` when this process is root, since PostgreSQL refuses to run as root), trust
 * auth, listening only on 127.0.0.1 on a free port, durability off (tests). The server is a child
 * of a shell that stops it when this process's pipe to it closes, so a killed test run leaves no
 * server behind.
 */
export async function startPostgresServer(): Promise<PostgresServer> {
  const binDir = postgresBinDir();
  const root = process.getuid?.() === 0;
  const runAs = root ? ['runuser', '-u', 'postgres', '--'] : [];
  const dataDir = await mkdtemp(join(tmpdir(), 'a3s-postgres-'));
  if (root) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    await chown(dataDir, uid, gid);
  }
  const pgdata = join(dataDir, 'data');
  await run([...runAs, bin(binDir, 'initdb'), '-D', pgdata, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C', '--no-sync', '--no-instructions']);
  for (let attempt = 0; ; attempt += 1) {
    const port = await freePort();
    try {
      const child = await launch(runAs, binDir, pgdata, dataDir, port);
      return {
        port,
        stop: async () => {
          if (child.exitCode === null && child.signalCode === null) {
            const exited = new Promise((resolve) => child.once('exit', resolve));
            child.stdin?.end();
            const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
            await exited;
            clearTimeout(timer);
          }
          await rm(dataDir, { recursive: true, force: true });
        },
      };
    } catch (error) {
      if (attempt >= 3) {
        await rm(dataDir, { recursive: true, force: true });
        throw error;
      }
    }
  }
}

async function launch(runAs: readonly string[], binDir: string | null, pgdata: string, socketDir: string, port: number): Promise<ChildProcess> {
  const postgres = [bin(binDir, 'postgres'), '-D', pgdata, '-p', String(port), '-k', socketDir, '-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off', '-c', 'max_connections=300'];
  // The shell waits for its stdin to close (this process ended or stop()), then asks for a fast
  // shutdown and removes the data directory: a test process that was killed leaves nothing behind.
  const script = `dir=$1; shift; "$@" & pid=$!; cat >/dev/null; kill -INT "$pid" 2>/dev/null; wait "$pid"; rm -rf "$dir"`;
  // The shell runs as the server's user (runuser outside it), so `$pid` is the postmaster itself.
  const [command = 'bash', ...args] = [...runAs, 'bash', '-c', script, 'postgres', socketDir, ...postgres];
  const child = spawn(command, args, { stdio: ['pipe', 'ignore', 'pipe'] });
  let log = '';
  await new Promise<void>((resolve, reject) => {
    child.stderr?.on('data', (chunk: Buffer) => {
      log += chunk.toString('utf8');
      if (log.includes('ready to accept connections')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`postgres exited with ${String(code)} before accepting connections: ${log.slice(-2000)}`)));
  });
  child.stderr?.removeAllListeners('data');
  child.stderr?.resume();
  return child;
}

/** Runs one statement as the superuser through `psql`. */
async function adminQuery(port: number, sql: string): Promise<void> {
  await run([bin(postgresBinDir(), 'psql'), '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-d', 'postgres', '-c', sql]);
}

function run(argv: readonly string[]): Promise<void> {
  const [command, ...args] = argv;
  if (command === undefined) return Promise.reject(new Error('empty command'));
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${argv.join(' ')} exited with ${String(code)}: ${stderr.slice(-2000)}`))));
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
