import type { Dirent } from 'node:fs';
import { posix } from 'node:path';

import { readdirTyped, realpathOf } from '../local-io.js';

/**
 * The directory listings of one workspace at one moment (one sandboxed call's start, or its
 * end), each read at most once: the protected mounts, the absent protected paths and the hooks
 * check of a call all ask about the same few directories (`.`, `.a3s`, `.git`...). A directory
 * absent from its parent's listing is known to be empty without a syscall (no ENOENT to build),
 * and an entry's real path is known without `realpath` when no component on the way is a link.
 * Not a cache across calls: a new call takes a new listing. Read in place or through the thread
 * pool by the process's load (see `local-io.ts`).
 */
export class WorkspaceListing {
  readonly #listings = new Map<string, Promise<ReadonlyMap<string, Dirent>>>();

  /** @param rootReal the workspace's real path. */
  constructor(readonly rootReal: string) {}

  /** The entries of `relative` (workspace-relative directory, `.` for the root); empty when it is absent or unreadable. */
  entries(relative: string): Promise<ReadonlyMap<string, Dirent>> {
    let listing = this.#listings.get(relative);
    if (listing === undefined) {
      listing = this.#read(relative);
      this.#listings.set(relative, listing);
    }
    return listing;
  }

  /** The entry at `relative` (workspace-relative), or null when it does not exist. */
  async entry(relative: string): Promise<Dirent | null> {
    if (relative === '.' || relative === '') return null;
    return (await this.entries(posix.dirname(relative))).get(posix.basename(relative)) ?? null;
  }

  /**
   * The real path of `relative` when it exists and stays inside the workspace, else null: the
   * joined path when every component is a plain entry, else `realpath` (a link is followed to
   * where it leads, and a target outside the workspace is null).
   */
  async realInside(relative: string): Promise<string | null> {
    const parts = relative.split('/');
    let plain = true;
    for (let index = 1; index <= parts.length; index += 1) {
      const entry = await this.entry(parts.slice(0, index).join('/'));
      if (entry === null) return null;
      if (entry.isSymbolicLink()) {
        plain = false;
        break;
      }
    }
    const joined = posix.join(this.rootReal, relative);
    if (plain) return joined;
    const real = await realpathOf(joined).catch(() => null);
    if (real === null) return null;
    const inside = posix.relative(this.rootReal, real);
    return inside === '' || inside.startsWith('..') || posix.isAbsolute(inside) ? null : real;
  }

  async #read(relative: string): Promise<ReadonlyMap<string, Dirent>> {
    if (relative !== '.' && relative !== '') {
      const entry = await this.entry(relative);
      // Absent, or not something a listing can be read from: nothing below it.
      if (entry === null || !(entry.isDirectory() || entry.isSymbolicLink())) return new Map();
    }
    const dirents = await readdirTyped(posix.join(this.rootReal, relative)).catch(() => [] as Dirent[]);
    return new Map(dirents.map((dirent) => [dirent.name, dirent]));
  }
}
