import { CodeError } from './code-error.js';
import type { ErrorCode } from './error-codes.js';

/** What an optional package is for, to name it in the error when it is missing. */
export interface OptionalPackage {
  /** The npm package name, e.g. `@anthropic-ai/sdk`. */
  readonly name: string;
  /** The error code of the failure (`CONFIG_ERROR` for a provider, `MCP_ERROR` for MCP...). */
  readonly code: ErrorCode;
  /** What needs it, e.g. `the 'anthropic' provider`. */
  readonly neededBy: string;
  /** Extra `details` of the error. */
  readonly details?: Readonly<Record<string, unknown>>;
}

function isModuleNotFound(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND';
}

/**
 * The typed error of a missing optional package: `details.reason` is `package_missing` and
 * `details.package` its name; the message says how to add it.
 */
export function missingPackageError(pkg: OptionalPackage, cause?: unknown): CodeError {
  return new CodeError(pkg.code, `${pkg.neededBy} needs the '${pkg.name}' package: install it next to @a3s-lab/code (npm install ${pkg.name})`, {
    ...(cause === undefined ? {} : { cause }),
    details: { ...pkg.details, reason: 'package_missing', package: pkg.name },
  });
}

/**
 * Throws {@link missingPackageError} when `resolve` (the caller's
 * `createRequire(import.meta.url).resolve`: core stays free of `node:` imports) cannot find `pkg`,
 * without loading it: a missing package fails when the feature is configured, not on first use.
 */
export function assertPackageInstalled(pkg: OptionalPackage, resolve: (name: string) => string): void {
  try {
    resolve(pkg.name);
  } catch (error) {
    if (isModuleNotFound(error)) throw missingPackageError(pkg, error);
    // Resolvable but not through `require` (an import-only export map): present.
  }
}

/**
 * Loads an optional package once (`importer` is its dynamic `import()`); "module not found"
 * becomes {@link missingPackageError}. A failed load is not cached: installing the package fixes
 * the next attempt.
 */
export function lazyOptionalPackage<T>(pkg: OptionalPackage, importer: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => {
    loading ??= importer().catch((error: unknown) => {
      loading = undefined;
      throw isModuleNotFound(error) ? missingPackageError(pkg, error) : error;
    });
    return loading;
  };
}
