import { CodeError } from '@a3s-lab/code-core';

/** The `@a3s-lab/code-s3` module, loaded on first use. */
export type S3Module = typeof import('@a3s-lab/code-s3');

/** The package that carries S3 support; installed only by users who need it. */
export const S3_PACKAGE = '@a3s-lab/code-s3';

let loading: Promise<S3Module> | undefined;

/**
 * Loads `@a3s-lab/code-s3` (and with it the AWS SDK) the first time an S3 backend or store does
 * any work, so hosts that never use S3 never load it.
 *
 * @throws CodeError CONFIG_ERROR (`details.reason` `package_missing`) naming the package to install.
 */
export function loadS3(): Promise<S3Module> {
  loading ??= importS3(() => import('@a3s-lab/code-s3')).catch((error: unknown) => {
    // A failed load is not cached: installing the package fixes the next attempt.
    loading = undefined;
    throw error;
  });
  return loading;
}

/** Runs `importer` (the dynamic import of {@link S3_PACKAGE}) and names the package when it is missing. */
export async function importS3(importer: () => Promise<S3Module>): Promise<S3Module> {
  try {
    return await importer();
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    // Only the package itself missing: a dependency of it failing to load is reported as is.
    const names = error instanceof Error && error.message.includes(`'${S3_PACKAGE}'`);
    if ((code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') && names) {
      throw new CodeError('CONFIG_ERROR', `S3 support needs the '${S3_PACKAGE}' package: install it next to @a3s-lab/code (npm install ${S3_PACKAGE})`, {
        details: { reason: 'package_missing', package: S3_PACKAGE },
      });
    }
    throw error;
  }
}
