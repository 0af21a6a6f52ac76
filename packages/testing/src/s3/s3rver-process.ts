import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// The child: runs s3rver, prints `{"port":N}` once listening, stops when its stdin closes (the
// parent closed it or exited).
const CHILD_SCRIPT = `
const [entry, directory, ...buckets] = process.argv.slice(1);
const { pathToFileURL } = await import('node:url');
const { default: S3rver } = await import(pathToFileURL(entry).href);
const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: buckets.map((name) => ({ name })) });
const { port } = await server.run();
process.stdout.write(JSON.stringify({ port }) + '\\n');
process.stdin.resume();
process.stdin.on('end', () => { void server.close().finally(() => process.exit(0)); });
`;

/** The access key id s3rver accepts (its default account). */
export const S3RVER_ACCESS_KEY_ID = 'S3RVER';
/** The secret access key of s3rver's default account. */
export const S3RVER_SECRET_ACCESS_KEY = 'S3RVER';

/** A running s3rver child process. */
export interface S3rverProcess {
  /** `http://127.0.0.1:<port>` */
  readonly endpoint: string;
  readonly port: number;
  stop(): Promise<void>;
}

/**
 * Starts s3rver 3.7.1 on 127.0.0.1 (a free port) in a child process with
 * `NODE_OPTIONS=--openssl-legacy-provider` (its continuation tokens use a cipher OpenSSL 3 keeps
 * in the legacy provider), storing objects in a fresh temp directory, with `buckets` created.
 */
export async function startS3rver(buckets: readonly string[]): Promise<S3rverProcess> {
  const directory = await mkdtemp(join(tmpdir(), 'a3s-s3rver-'));
  const entry = createRequire(import.meta.url).resolve('s3rver');
  const child = spawn(process.execPath, ['--input-type=module', '-e', CHILD_SCRIPT, entry, directory, ...buckets], {
    env: { ...process.env, NODE_OPTIONS: '--openssl-legacy-provider' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const port = await new Promise<number>((resolve, reject) => {
    let buffered = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      const line = buffered.split('\n')[0];
      if (buffered.includes('\n') && line !== undefined) resolve((JSON.parse(line) as { port: number }).port);
    });
    child.once('exit', (code) => reject(new Error(`s3rver exited with ${String(code)} before listening: ${stderr}`)));
  });
  return {
    endpoint: `http://127.0.0.1:${port}`,
    port,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.stdin.end();
        const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
        await exited;
        clearTimeout(timer);
      }
      await rm(directory, { recursive: true, force: true });
    },
  };
}
