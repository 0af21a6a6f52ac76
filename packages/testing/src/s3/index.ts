// S3 test harness of @a3s-lab/code-testing (the `/s3` subpath): s3rver in a child process and an
// enforcing conditional-write / fault-injection proxy in front of it. Exports are listed by name.
// s3rver is an optional peer of this package: importing this subpath without it fails with a
// CONFIG_ERROR naming the package.
import { createRequire } from 'node:module';
import { assertPackageInstalled } from '@a3s-lab/code-core/util';

assertPackageInstalled({ name: 's3rver', code: 'CONFIG_ERROR', neededBy: '@a3s-lab/code-testing/s3' }, createRequire(import.meta.url).resolve);

export { S3RVER_ACCESS_KEY_ID, S3RVER_SECRET_ACCESS_KEY, startS3rver } from './s3rver-process.js';
export type { S3rverProcess } from './s3rver-process.js';
export { ConditionalS3Proxy } from './conditional-s3-proxy.js';
export type { FaultRule, ProxiedRequest, ProxyFault } from './conditional-s3-proxy.js';
