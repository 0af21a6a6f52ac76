import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';

import { throwIfAborted } from '@a3s-lab/code-core/util';
import { readRegularFile } from '../open-regular-file.js';
import { ignoreFileVerdict, OverrideGlobs, parseIgnoreFile } from './ignore-rules.js';
import type { IgnoreFile } from './ignore-rules.js';

/** Options of {@link walkFiles}. */
export interface WalkOptions {
  readonly rootReal: string;
  /** Workspace-relative directory to walk (`.` = root). */
  readonly directory: string;
  /** Override globs, anchored relative to the root (`!.git` is always appended). */
  readonly globs: readonly string[];
  readonly abortSignal?: AbortSignal;
}

/**
 * Walks `directory` like ripgrep does with the flags of `baseRipgrepArgs`: depth first, entries
 * sorted by name, hidden entries included, `.git` excluded, symlinks skipped, `.gitignore` files
 * of the walked directories applied (plus the root's when walking a subdirectory), override globs
 * first. Yields workspace-relative file paths in batches.
 */
export async function* walkFiles(options: WalkOptions): AsyncGenerator<string[]> {
  const overrides = new OverrideGlobs([...options.globs, '!.git']);
  const chain: IgnoreFile[] = [];
  if (options.directory !== '.') {
    const rootIgnore = await readIgnore(options.rootReal, '.');
    if (rootIgnore !== null) chain.push(rootIgnore);
  }
  yield* walkDirectory(options, overrides, chain, options.directory);
}

async function* walkDirectory(options: WalkOptions, overrides: OverrideGlobs, parentChain: readonly IgnoreFile[], directory: string): AsyncGenerator<string[]> {
  throwIfAborted(options.abortSignal);
  const absolute = directory === '.' ? options.rootReal : `${options.rootReal}/${directory}`;
  let entries: Dirent[];
  try {
    entries = await readdir(absolute, { withFileTypes: true });
  } catch {
    // Unreadable directories are skipped silently, like ripgrep with --no-messages.
    return;
  }
  const own = entries.some((entry) => entry.name === '.gitignore' && entry.isFile()) ? await readIgnore(options.rootReal, directory) : null;
  const chain = own === null ? parentChain : [...parentChain, own];
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  let files: string[] = [];
  for (const entry of entries) {
    const isDirectory = entry.isDirectory();
    if (!isDirectory && !entry.isFile()) continue;
    const path = directory === '.' ? entry.name : `${directory}/${entry.name}`;
    if (!included(overrides, chain, path, isDirectory)) continue;
    if (isDirectory) {
      if (files.length > 0) {
        yield files;
        files = [];
      }
      yield* walkDirectory(options, overrides, chain, path);
    } else {
      files.push(path);
    }
  }
  if (files.length > 0) yield files;
}

function included(overrides: OverrideGlobs, chain: readonly IgnoreFile[], path: string, isDirectory: boolean): boolean {
  const override = overrides.verdict(path, isDirectory);
  if (override !== null) return override === 'whitelist';
  for (let index = chain.length - 1; index >= 0; index -= 1) {
    const verdict = ignoreFileVerdict(chain[index] as IgnoreFile, path, isDirectory);
    if (verdict !== null) return verdict === 'whitelist';
  }
  return true;
}

async function readIgnore(rootReal: string, directory: string): Promise<IgnoreFile | null> {
  const file = directory === '.' ? `${rootReal}/.gitignore` : `${rootReal}/${directory}/.gitignore`;
  try {
    const content = await readRegularFile(file, file);
    return content === null ? null : parseIgnoreFile(directory, content.toString('utf8'));
  } catch {
    return null;
  }
}
