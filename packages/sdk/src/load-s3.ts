import { createRequire } from 'node:module';

import { assertPackageInstalled, lazyOptionalPackage } from '@a3s-lab/code-core/internal';
import type { OptionalPackage } from '@a3s-lab/code-core/internal';

/** The `@a3s-lab/code-s3` module, loaded on first use. */
export type S3Module = typeof import('@a3s-lab/code-s3');

/** The package that carries S3 support; installed only by users who need it. */
export const S3_PACKAGE = '@a3s-lab/code-s3';

const S3_SUPPORT: OptionalPackage = { name: S3_PACKAGE, code: 'CONFIG_ERROR', neededBy: 'S3 support (S3WorkspaceBackend, S3SessionStore, storage_backend = "s3")' };

/**
 * Loads `@a3s-lab/code-s3` (and with it the AWS SDK) the first time an S3 backend or store does
 * any work, so hosts that never use S3 never load it.
 *
 * @throws CodeError CONFIG_ERROR (`details.reason` `package_missing`) naming the package to install.
 */
export const loadS3: () => Promise<S3Module> = lazyOptionalPackage(S3_SUPPORT, () => import('@a3s-lab/code-s3'));

/**
 * Checks, without loading it, that `@a3s-lab/code-s3` is installed: an S3 backend or store
 * constructed without it fails at once, naming the package.
 *
 * @throws CodeError CONFIG_ERROR (`details.reason` `package_missing`).
 */
export function assertS3Installed(resolve: (name: string) => string = createRequire(import.meta.url).resolve): void {
  assertPackageInstalled(S3_SUPPORT, resolve);
}
