import type { BackendCallOptions, WorkspaceBackend, WorkspaceCapabilities, WorkspaceOverlay } from '@a3s-lab/code-core';

const inners = new WeakMap<WorkspaceBackend, WorkspaceBackend>();

/** The backend an overlaid one wraps (itself when it is not overlaid). */
export function innerBackend(backend: WorkspaceBackend): WorkspaceBackend {
  return inners.get(backend) ?? backend;
}

/**
 * `inner` seen through the host's `overlay` (`SessionOptions.workspaceOverlay`), with confinement
 * kept in front of it: every path-taking call is first resolved by `inner.resolvePath` (with
 * `forWrite` for writes and deletes, so protected paths are refused) and the overlay gets only
 * the canonical path it returned; a path outside the workspace or on the deny-read list throws
 * `inner`'s SECURITY_ERROR before the overlay sees anything. A method the overlay does not
 * implement is `inner`'s (so `{ ...backend, readFile }` over a class instance keeps the rest);
 * `resolvePath`, `kind` and `root` are always `inner`'s; capabilities are `inner`'s, narrowed by
 * the overlay's flags (a flag can only turn a capability off).
 */
export function overlaidBackend(inner: WorkspaceBackend, overlay: WorkspaceOverlay): WorkspaceBackend {
  const outer = overlay(inner);
  const method = <K extends MethodName>(name: K): WorkspaceBackend[K] => {
    const own = outer[name];
    if (typeof own === 'function') return own.bind(outer) as WorkspaceBackend[K];
    const fallback = inner[name];
    return (typeof fallback === 'function' ? fallback.bind(inner) : undefined) as WorkspaceBackend[K];
  };
  const readFile = method('readFile')!;
  const stat = method('stat')!;
  const [writeFile, deleteFile, list, glob, search, exec, git] = [method('writeFile'), method('deleteFile'), method('list'), method('glob'), method('search'), method('exec'), method('git')];
  const narrowed = (flag: keyof WorkspaceCapabilities, present: boolean): boolean => inner.capabilities[flag] && present && outer.capabilities?.[flag] !== false;
  const capabilities: WorkspaceCapabilities = {
    read: narrowed('read', true),
    write: narrowed('write', writeFile !== undefined),
    list: narrowed('list', list !== undefined),
    search: narrowed('search', search !== undefined && glob !== undefined),
    exec: narrowed('exec', exec !== undefined),
    git: narrowed('git', git !== undefined),
    versionedWrites: narrowed('versionedWrites', writeFile !== undefined),
  };
  const confined = async <T extends BackendCallOptions>(options: T, path: string, forWrite = false): Promise<T & { readonly path: string }> => ({
    ...options,
    path: await inner.resolvePath({ path, forWrite, ...(options.abortSignal === undefined ? {} : { abortSignal: options.abortSignal }) }),
  });
  const backend: WorkspaceBackend = {
    kind: inner.kind,
    root: inner.root,
    capabilities,
    resolvePath: (options) => inner.resolvePath(options),
    readFile: async (options) => readFile(await confined(options, options.path)),
    stat: async (options) => stat(await confined(options, options.path)),
    ...(capabilities.write && writeFile !== undefined ? { writeFile: async (options) => writeFile(await confined(options, options.path, true)) } : {}),
    ...(capabilities.write && deleteFile !== undefined ? { deleteFile: async (options) => deleteFile(await confined(options, options.path, true)) } : {}),
    ...(capabilities.list && list !== undefined ? { list: async (options) => list(await confined(options, options.path)) } : {}),
    ...(capabilities.search && glob !== undefined && search !== undefined
      ? {
          glob: async (options) => glob(options.path === undefined ? options : await confined(options, options.path)),
          search: async (options) => search(options.path === undefined ? options : await confined(options, options.path)),
        }
      : {}),
    ...(capabilities.exec && exec !== undefined
      ? { exec: async (options) => exec(options.cwd === undefined ? options : { ...options, cwd: await inner.resolvePath({ path: options.cwd, ...(options.abortSignal === undefined ? {} : { abortSignal: options.abortSignal }) }) }) }
      : {}),
    ...(capabilities.git && git !== undefined ? { git } : {}),
    close: async () => {
      if (typeof outer.close === 'function' && outer.close !== inner.close) await outer.close();
      await inner.close?.();
    },
  };
  inners.set(backend, inner);
  return backend;
}

type MethodName = 'readFile' | 'stat' | 'writeFile' | 'deleteFile' | 'list' | 'glob' | 'search' | 'exec' | 'git';
