import { constants } from 'node:fs';
import { access } from 'node:fs/promises';

let cached: Promise<string | null> | undefined;

/**
 * Path of the ripgrep binary shipped by `@vscode/ripgrep` (resolved through the package, then
 * checked to exist and be executable), or `null` when it is not installed for this platform.
 * Cached for the process.
 */
export function findRipgrep(): Promise<string | null> {
  cached ??= locate();
  return cached;
}

/** True when `path` exists and is executable. */
export async function isExecutable(path: string): Promise<boolean> {
  try {
    await access(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

async function locate(): Promise<string | null> {
  let path: string;
  try {
    // Dynamic import: the package throws at load time when its platform binary is missing, and
    // that must select the fallback engine instead of breaking this package's import.
    ({ rgPath: path } = await import('@vscode/ripgrep'));
  } catch {
    return null;
  }
  return (await isExecutable(path)) ? path : null;
}
