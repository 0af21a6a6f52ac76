import { createRequire } from 'node:module';

import { assertPackageInstalled, lazyOptionalPackage } from '@a3s-lab/code-core/util';
import type { OptionalPackage } from '@a3s-lab/code-core/util';
import type { S3SessionLeasesLike, S3SessionStoreOptions, S3WorkspaceBackendOptions } from './s3-types.js';
import type { SessionStore, WorkspaceBackend } from '@a3s-lab/code-core';

/**
 * What the SDK uses of the `@a3s-lab/code-s3` module, loaded on first use. Declared here (the
 * loaded module is checked against it where it is imported) so that no declaration of this
 * package names the optional package or the AWS SDK.
 */
export interface S3Module {
  /** The S3 workspace backend. */
  readonly S3WorkspaceBackend: new (options: S3WorkspaceBackendOptions) => WorkspaceBackend;
  /** The S3 session store; `close()` releases the client it built. */
  readonly S3SessionStore: new (options: S3SessionStoreOptions) => SessionStore & { close(): Promise<void> };
  /** Per-session leases beside a store's documents. */
  readonly S3SessionLeases: new (options: S3SessionStoreOptions & { readonly ttlMs?: number }) => S3SessionLeasesLike;
}

/** The package that carries S3 support; installed only by users who need it. */
export const S3_PACKAGE: string = '@a3s-lab/code-s3';

const S3_SUPPORT: OptionalPackage = { name: S3_PACKAGE, code: 'CONFIG_ERROR', neededBy: 'S3 support (S3WorkspaceBackend, S3SessionStore, storage_backend = "s3")' };

/**
 * Loads `@a3s-lab/code-s3` (and with it the AWS SDK) the first time an S3 backend or store does
 * any work, so hosts that never use S3 never load it.
 *
 * @throws CodeError CONFIG_ERROR (`details.reason` `package_missing`) naming the package to install.
 */
export const loadS3: () => Promise<S3Module> = lazyOptionalPackage<S3Module>(S3_SUPPORT, () => import('@a3s-lab/code-s3'));

/**
 * Checks, without loading it, that `@a3s-lab/code-s3` is installed: an S3 backend or store
 * constructed without it fails at once, naming the package.
 *
 * @throws CodeError CONFIG_ERROR (`details.reason` `package_missing`).
 */
export function assertS3Installed(resolve: (name: string) => string = createRequire(import.meta.url).resolve): void {
  assertPackageInstalled(S3_SUPPORT, resolve);
}
