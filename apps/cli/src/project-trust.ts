import { createHash, randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, realpathSync, renameSync, writeSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { CodeError } from '@a3s-lab/code';

/**
 * Where the user's trust decisions about project configs are remembered:
 * `$HOME/.a3s/trusted-projects.json`, `{ "version": 1, "projects": { "<real path>": "<sha256>" } }`.
 */
export const TRUST_STORE_FILE = join('.a3s', 'trusted-projects.json');

/** A project config file and the digest of the exact bytes that were looked at. */
export interface ProjectConfigIdentity {
  /** Real path of the config file. */
  readonly path: string;
  /** Hex SHA-256 of its content. */
  readonly sha256: string;
}

interface TrustFile {
  readonly version: 1;
  readonly projects: Record<string, string>;
}

const storePath = (env: Readonly<Record<string, string | undefined>>): string => join(env['HOME'] ?? homedir(), TRUST_STORE_FILE);

/** The real path and content digest of a project config file. */
export function identifyProjectConfig(path: string): ProjectConfigIdentity {
  const real = realpathSync(path);
  return { path: real, sha256: createHash('sha256').update(readFileSync(real)).digest('hex') };
}

function readTrustFile(file: string): TrustFile {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return { version: 1, projects: {} };
  }
  try {
    const parsed = JSON.parse(text) as Partial<TrustFile>;
    if (parsed.version === 1 && typeof parsed.projects === 'object' && parsed.projects !== null) {
      const projects: Record<string, string> = {};
      for (const [key, value] of Object.entries(parsed.projects)) if (typeof value === 'string') projects[key] = value;
      return { version: 1, projects };
    }
  } catch {
    // A broken store trusts nothing; the next decision rewrites it.
  }
  return { version: 1, projects: {} };
}

/** True when the user trusted exactly this file with exactly this content. */
export function isProjectConfigTrusted(identity: ProjectConfigIdentity, env: Readonly<Record<string, string | undefined>>): boolean {
  return readTrustFile(storePath(env)).projects[identity.path] === identity.sha256;
}

/**
 * Records the user's decision to trust `identity` (path + content digest); a later change of
 * the file's content needs a new decision. Written atomically (temp file, fsync, rename).
 *
 * @throws CodeError IO_ERROR when the store cannot be written.
 */
export function trustProjectConfig(identity: ProjectConfigIdentity, env: Readonly<Record<string, string | undefined>>): void {
  const file = storePath(env);
  const store = readTrustFile(file);
  const next: TrustFile = { version: 1, projects: { ...store.projects, [identity.path]: identity.sha256 } };
  try {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
    const fd = openSync(temp, 'wx', 0o600);
    try {
      writeSync(fd, `${JSON.stringify(next, null, 2)}\n`);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, file);
  } catch (error) {
    throw new CodeError('IO_ERROR', `cannot record the trust decision in ${file}: ${error instanceof Error ? error.message : String(error)}`, { details: { file }, cause: error });
  }
}

/** The CONFIG_ERROR of a run that found an untrusted project config and cannot ask about it. */
export function untrustedProjectConfigError(identity: ProjectConfigIdentity, workspace: string): CodeError {
  return new CodeError(
    'CONFIG_ERROR',
    `the workspace's own config ${identity.path} is not trusted: a repository's config can choose the model server your API key is sent to and the permission policy. ` +
      `Review it, then run \`a3s-code trust --workspace ${workspace}\` (or run interactively and answer the question), or pass --config FILE`,
    { details: { file: identity.path, sha256: identity.sha256, reason: 'untrusted_project_config' } },
  );
}
