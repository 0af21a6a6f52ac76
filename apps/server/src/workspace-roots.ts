import { realpath } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { ServerError } from './server-error.js';

/**
 * Resolves a requested workspace to its real path and checks it lies inside one of `roots`
 * (compared by path components after realpath, so `/srv/app2` is not inside `/srv/app` and a
 * symlink cannot lead out). Throws WORKSPACE_NOT_ALLOWED otherwise, BAD_REQUEST when the path
 * does not exist or is relative.
 */
export async function resolveWorkspace(requested: string, roots: readonly string[]): Promise<string> {
  if (!isAbsolute(requested)) throw new ServerError('BAD_REQUEST', `workspace must be an absolute path; got '${requested}'`, { field: 'workspace' });
  let real: string;
  try {
    real = await realpath(resolve(requested));
  } catch {
    throw new ServerError('BAD_REQUEST', `workspace '${requested}' does not exist`, { field: 'workspace' });
  }
  for (const root of roots) {
    const realRoot = await realpath(root).catch(() => null);
    if (realRoot === null) continue;
    const rel = relative(realRoot, real);
    if (rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel))) return real;
  }
  throw new ServerError('WORKSPACE_NOT_ALLOWED', `workspace '${requested}' is outside the configured workspace roots`, { workspace: requested });
}
