import { realpathSync } from 'node:fs';
import { posix } from 'node:path';

import { isUnder } from './bwrap-args.js';
import type { SandboxPolicy } from './sandbox-policy.js';
import type { EngineFilesRequest, EngineRecord, EngineSearchRequest, SearchEngine } from '../search/search-engine.js';

/**
 * The sandbox policy's deny-read list as the in-process tools obey it: the same paths that are
 * hidden from sandboxed processes are refused to `read`, `write`, `ls`, `grep`, `glob` (and a
 * command's cwd), so a path denied to `cat` is denied to `read`. Each path counts literally and
 * by its real path (a symlinked `~/.ssh` is denied where it points).
 */
export class DenyReadRules {
  readonly #paths: readonly string[];

  constructor(policy: Pick<SandboxPolicy, 'denyRead'>) {
    const paths = new Set<string>();
    for (const path of policy.denyRead) {
      paths.add(path);
      try {
        paths.add(realpathSync(path));
      } catch {
        // Not there (yet): the literal path still counts.
      }
    }
    this.#paths = [...paths];
  }

  /** The denied path `absolute` (a real path) is, or lies below; undefined when allowed. */
  deniedBy(absolute: string): string | undefined {
    return this.#paths.find((denied) => isUnder(absolute, denied));
  }

  /** The denied paths inside the workspace `rootReal`, workspace-relative. */
  insideWorkspace(rootReal: string): string[] {
    return this.#paths.filter((denied) => isUnder(denied, rootReal) && denied !== rootReal).map((denied) => posix.relative(rootReal, denied));
  }
}

/** `engine` without the records of files at or below the workspace-relative `denied` paths. */
export function withoutDenied(engine: SearchEngine, denied: readonly string[]): SearchEngine {
  if (denied.length === 0) return engine;
  const allowed = (path: string): boolean => !denied.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
  return {
    name: engine.name,
    async *search(request: EngineSearchRequest): AsyncIterable<readonly EngineRecord[]> {
      for await (const batch of engine.search(request)) {
        const kept = batch.filter((record) => allowed(record.path));
        if (kept.length > 0) yield kept;
      }
    },
    async *listFiles(request: EngineFilesRequest): AsyncIterable<readonly string[]> {
      for await (const batch of engine.listFiles(request)) {
        const kept = batch.filter(allowed);
        if (kept.length > 0) yield kept;
      }
    },
  };
}
