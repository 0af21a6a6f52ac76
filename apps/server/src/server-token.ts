import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CodeError } from '@a3s-lab/code';

/** Environment variable that supplies the bearer token instead of the token file. */
export const SERVER_TOKEN_ENV = 'A3S_SERVER_TOKEN';

/** The bearer token and where it came from. */
export interface ServerToken {
  readonly token: string;
  /** `option` (passed in), `env` ({@link SERVER_TOKEN_ENV}), `file` (read) or `generated` (first start: print it once). */
  readonly source: 'option' | 'env' | 'file' | 'generated';
}

/** Tokens shorter than this are refused: a guessable token is no authentication. */
export const MIN_TOKEN_LENGTH = 24;

/**
 * Resolves the bearer token: the explicit one, else `A3S_SERVER_TOKEN`, else `<stateDir>/token`;
 * when none exists a random 256-bit token is generated and written there (0600, O_EXCL), and
 * `source` is `generated` so the caller prints it once. Throws on a token shorter than
 * {@link MIN_TOKEN_LENGTH}.
 */
export async function resolveServerToken(options: { readonly token?: string; readonly stateDir: string; readonly env?: NodeJS.ProcessEnv }): Promise<ServerToken> {
  const check = (token: string, source: ServerToken['source']): ServerToken => {
    if (token.length < MIN_TOKEN_LENGTH || /\s/.test(token)) {
      const from = source === 'env' ? SERVER_TOKEN_ENV : source === 'file' ? 'the token file in the state directory' : 'the token option';
      throw new CodeError('CONFIG_ERROR', `the server token from ${from} must be at least ${MIN_TOKEN_LENGTH} characters without whitespace (it has ${token.length})`, { details: { field: 'token', source, minLength: MIN_TOKEN_LENGTH } });
    }
    return { token, source };
  };
  if (options.token !== undefined) return check(options.token, 'option');
  const fromEnv = (options.env ?? process.env)[SERVER_TOKEN_ENV];
  if (fromEnv !== undefined && fromEnv.length > 0) return check(fromEnv, 'env');
  const path = join(options.stateDir, 'token');
  try {
    return check((await readFile(path, 'utf8')).trim(), 'file');
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'ENOENT') throw error;
  }
  await mkdir(options.stateDir, { recursive: true, mode: 0o700 });
  const token = randomBytes(32).toString('base64url');
  try {
    const handle = await open(path, 'wx', 0o600);
    try {
      await handle.writeFile(`${token}\n`);
    } finally {
      await handle.close();
    }
  } catch (error) {
    // Another process generated it first: use theirs.
    if ((error as { code?: unknown }).code === 'EEXIST') return check((await readFile(path, 'utf8')).trim(), 'file');
    throw error;
  }
  return { token, source: 'generated' };
}
