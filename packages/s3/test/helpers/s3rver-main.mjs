// Runs s3rver in its own process (started by test/helpers/s3rver-process.ts with
// NODE_OPTIONS=--openssl-legacy-provider: s3rver signs continuation tokens with a cipher that
// OpenSSL 3 only offers through the legacy provider). Prints `{"port":N}` once listening and
// stops when its stdin closes (the parent exited or closed it).
import S3rver from 's3rver';

const [directory, ...buckets] = process.argv.slice(2);
const server = new S3rver({
  address: '127.0.0.1',
  port: 0,
  silent: true,
  directory,
  configureBuckets: buckets.map((name) => ({ name })),
});
const { port } = await server.run();
process.stdout.write(`${JSON.stringify({ port })}\n`);
process.stdin.resume();
process.stdin.on('end', () => {
  void server.close().finally(() => process.exit(0));
});
