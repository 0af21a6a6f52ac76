import { CodeError } from '../errors/code-error.js';
import { HostFailure } from '../errors/host-failure.js';
import type {
  BackendCallOptions,
  ByteRange,
  GlobOptions,
  Page,
  SearchOptions,
  SearchResult,
  WorkspaceBackend,
  WorkspaceCapabilities,
  WorkspaceEntry,
  WorkspaceFile,
  WorkspaceStat,
  WriteFileOptions,
} from '../workspace/workspace-backend.js';
import { globToRegExp } from '../glob/glob-to-regexp.js';
import { parseCursor, searchMemoryFiles } from './memory-search.js';

/** Options of {@link MemoryWorkspaceBackend}. */
export interface MemoryWorkspaceBackendOptions {
  /** Initial files, keyed by workspace-relative path. Default: none. */
  readonly files?: Readonly<Record<string, string | Uint8Array>>;
  /** Display root; absolute paths under it are accepted. Default `/memory`. */
  readonly root?: string;
}

interface StoredFile {
  content: Uint8Array;
  version: string;
  modifiedMs: number;
}

const encoder = new TextEncoder();

/**
 * An in-memory {@link WorkspaceBackend} for tests and examples: read, write, list, glob and
 * search (JS RegExp), conditional writes, no exec and no git. It follows the interface's
 * semantics exactly: `null` for missing things, `HostFailure` `Conflict` on a version mismatch,
 * `SECURITY_ERROR` for a path that leads out of the root, canonical relative paths (`.` is the
 * root). Directories exist implicitly as the parents of files.
 */
export class MemoryWorkspaceBackend implements WorkspaceBackend {
  readonly kind = 'memory';
  readonly root: string;
  readonly capabilities: WorkspaceCapabilities = Object.freeze({
    read: true,
    write: true,
    list: true,
    search: true,
    exec: false,
    git: false,
    versionedWrites: true,
  });
  readonly #files = new Map<string, StoredFile>();
  #sequence = 0;
  #clock = 0;

  constructor(options: MemoryWorkspaceBackendOptions = {}) {
    this.root = options.root ?? '/memory';
    for (const [path, content] of Object.entries(options.files ?? {})) this.#store(this.#canonical(path), content);
  }

  /** Every file path currently stored, sorted (a test convenience). */
  paths(): string[] {
    return [...this.#files.keys()].sort();
  }

  async resolvePath(options: BackendCallOptions & { readonly path: string; readonly forWrite?: boolean }): Promise<string> {
    checkAbort(options.abortSignal);
    return this.#canonical(options.path);
  }

  async readFile(options: BackendCallOptions & { readonly path: string; readonly range?: ByteRange }): Promise<WorkspaceFile | null> {
    checkAbort(options.abortSignal);
    const path = this.#canonical(options.path);
    const file = this.#files.get(path);
    if (file === undefined) {
      if (this.#isDirectory(path)) throw new HostFailure('Conflict', `'${path}' is a directory`, { path });
      return null;
    }
    const content = options.range === undefined ? file.content.slice() : file.content.slice(options.range.start, options.range.start + options.range.length);
    return { path, content, version: file.version, size: file.content.byteLength };
  }

  async stat(options: BackendCallOptions & { readonly path: string }): Promise<WorkspaceStat | null> {
    checkAbort(options.abortSignal);
    const path = this.#canonical(options.path);
    const file = this.#files.get(path);
    if (file !== undefined) return { path, type: 'file', size: file.content.byteLength, modifiedMs: file.modifiedMs, version: file.version };
    if (this.#isDirectory(path)) return { path, type: 'directory', size: 0, modifiedMs: 0, version: 'directory' };
    return null;
  }

  async writeFile(options: WriteFileOptions): Promise<{ readonly path: string; readonly version: string }> {
    checkAbort(options.abortSignal);
    const path = this.#canonical(options.path);
    if (path === '.' || this.#isDirectory(path)) throw new HostFailure('Conflict', `'${path}' is a directory`, { path });
    for (let parent = parentOf(path); parent !== '.'; parent = parentOf(parent)) {
      if (this.#files.has(parent)) throw new HostFailure('Conflict', `parent '${parent}' of '${path}' is a file`, { path });
    }
    const current = this.#files.get(path);
    if (options.expectedVersion !== undefined) {
      const actual = current?.version ?? null;
      if (actual !== options.expectedVersion) {
        throw new HostFailure('Conflict', `version mismatch for '${path}'`, { path, details: { expected: options.expectedVersion, actual } });
      }
    }
    return { path, version: this.#store(path, options.content) };
  }

  async deleteFile(options: BackendCallOptions & { readonly path: string; readonly expectedVersion?: string }): Promise<boolean> {
    checkAbort(options.abortSignal);
    const path = this.#canonical(options.path);
    const current = this.#files.get(path);
    if (current === undefined) return false;
    if (options.expectedVersion !== undefined && options.expectedVersion !== current.version) {
      throw new HostFailure('Conflict', `version mismatch for '${path}'`, { path, details: { expected: options.expectedVersion, actual: current.version } });
    }
    return this.#files.delete(path);
  }

  async list(options: BackendCallOptions & { readonly path: string; readonly limit: number; readonly cursor?: string }): Promise<Page<WorkspaceEntry> | null> {
    checkAbort(options.abortSignal);
    const path = this.#canonical(options.path);
    if (!this.#isDirectory(path)) return null;
    const prefix = path === '.' ? '' : `${path}/`;
    const entries = new Map<string, WorkspaceEntry>();
    for (const [filePath, file] of this.#files) {
      if (!filePath.startsWith(prefix)) continue;
      const rest = filePath.slice(prefix.length);
      const slash = rest.indexOf('/');
      const name = slash === -1 ? rest : rest.slice(0, slash);
      if (entries.has(name)) continue;
      entries.set(name, slash === -1 ? { name, path: filePath, type: 'file', size: file.content.byteLength } : { name, path: prefix + name, type: 'directory', size: 0 });
    }
    const sorted = [...entries.values()].sort((a, b) => compare(a.name, b.name));
    return paginate(sorted, options.limit, options.cursor);
  }

  async glob(options: GlobOptions): Promise<Page<string>> {
    checkAbort(options.abortSignal);
    const base = this.#canonical(options.path ?? '.');
    const prefix = base === '.' ? '' : `${base}/`;
    const matcher = globToRegExp(options.pattern);
    const matches: { path: string; modifiedMs: number }[] = [];
    for (const [path, file] of this.#files) {
      if (path.startsWith(prefix) && matcher.test(path.slice(prefix.length))) matches.push({ path, modifiedMs: file.modifiedMs });
    }
    // `backend` order is recency (newest first), like the local backend; `path` is lexical.
    if (options.sort === 'path') matches.sort((a, b) => compare(a.path, b.path));
    else matches.sort((a, b) => b.modifiedMs - a.modifiedMs || compare(a.path, b.path));
    return paginate(
      matches.map((m) => m.path),
      options.limit,
      options.cursor,
    );
  }

  async search(options: SearchOptions): Promise<SearchResult> {
    checkAbort(options.abortSignal);
    const base = this.#canonical(options.path ?? '.');
    if (!this.#files.has(base) && !this.#isDirectory(base)) throw new HostFailure('NotFound', `'${base}' does not exist`, { path: base });
    const prefix = base === '.' ? '' : `${base}/`;
    const files = [...this.#files.entries()]
      .filter(([path]) => path === base || path.startsWith(prefix))
      .map(([path, file]) => ({ path, relative: path === base ? (path.split('/').pop() ?? path) : path.slice(prefix.length), content: file.content }))
      .sort((a, b) => compare(a.path, b.path));
    return searchMemoryFiles(files, options);
  }

  #store(path: string, content: string | Uint8Array): string {
    this.#sequence += 1;
    this.#clock += 1;
    const version = `m${this.#sequence}`;
    this.#files.set(path, { content: typeof content === 'string' ? encoder.encode(content) : content.slice(), version, modifiedMs: this.#clock });
    return version;
  }

  #isDirectory(path: string): boolean {
    if (path === '.') return true;
    const prefix = `${path}/`;
    for (const filePath of this.#files.keys()) if (filePath.startsWith(prefix)) return true;
    return false;
  }

  /** The single confinement function: every path of every method goes through it. */
  #canonical(input: string): string {
    if (input.includes('\0')) throw securityError(input, 'the path contains a NUL byte');
    let path = input.replace(/\\/g, '/');
    if (path.startsWith('/')) {
      const root = this.root.replace(/\/+$/, '');
      if (path === root) path = '.';
      else if (path.startsWith(`${root}/`)) path = path.slice(root.length + 1);
      else throw securityError(input, 'absolute path outside the workspace root');
    }
    const parts: string[] = [];
    for (const part of path.split('/')) {
      if (part === '' || part === '.') continue;
      if (part === '..') {
        if (parts.length === 0) throw securityError(input, 'the path leads out of the workspace');
        parts.pop();
      } else {
        parts.push(part);
      }
    }
    return parts.length === 0 ? '.' : parts.join('/');
  }
}

function securityError(path: string, reason: string): CodeError {
  return new CodeError('SECURITY_ERROR', `path '${path}' is outside the workspace: ${reason}`, { details: { path, reason } });
}

function checkAbort(signal: AbortSignal | undefined): void {
  if (signal?.aborted === true) {
    const error = new Error('the operation was aborted');
    error.name = 'AbortError';
    throw error;
  }
}

function parentOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash === -1 ? '.' : path.slice(0, slash);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Offset-based pages; the cursor is the decimal index of the next item. */
function paginate<T>(items: readonly T[], limit: number, cursor: string | undefined): Page<T> {
  const start = parseCursor(cursor);
  const end = start + Math.max(1, limit);
  return { items: items.slice(start, end), nextCursor: end < items.length ? String(end) : null };
}
