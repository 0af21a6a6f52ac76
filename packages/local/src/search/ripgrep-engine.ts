import { statSync } from 'node:fs';

import { CodeError } from '@a3s-lab/code-core';

import { abortError, throwIfAborted } from '@a3s-lab/code-core/util';
import { RecordParser } from './ripgrep-output.js';
import { spawnThroughHelper } from './spawn-helper.js';
import type { EngineFilesRequest, EngineRecord, EngineSearchRequest, SearchEngine } from './search-engine.js';

/**
 * Flags shared by every ripgrep run. Semantics (mirrored by the fallback engine):
 * hidden files included, `.git` excluded, symlinks not followed, `.gitignore` files inside the
 * searched directory respected even outside a git repository, plus the workspace root's
 * `.gitignore` when a subdirectory is searched; nothing above the workspace root, no global
 * gitignore, no `.ignore`/`.rgignore`, no `.git/info/exclude`, no user ripgrep config.
 * Output is sorted by path so pages are stable, unless `order` is `any`: then ripgrep runs on
 * every core (`--sort` makes it single-threaded) and the caller sorts.
 */
export function baseRipgrepArgs(rootReal: string, searchPath: string, order: 'path' | 'any' = 'path'): string[] {
  const args = [
    '--no-config',
    '--hidden',
    '--no-require-git',
    '--no-ignore-parent',
    '--no-ignore-dot',
    '--no-ignore-global',
    '--no-ignore-exclude',
    '--no-messages',
    '--color=never',
    '--null',
  ];
  if (order === 'path') args.push('--sort=path');
  if (searchPath !== '.' && isRegularFile(`${rootReal}/.gitignore`)) args.push('--ignore-file=.gitignore');
  return args;
}

// ripgrep opens an ignore file it is given with a blocking read: never hand it a FIFO.
function isRegularFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** The argv of a search (without the binary), exposed so the benchmark runs ripgrep identically. */
export function ripgrepSearchArgs(request: Omit<EngineSearchRequest, 'abortSignal'>): string[] {
  const args = baseRipgrepArgs(request.rootReal, request.searchPath, request.order);
  if (request.mode === 'content') {
    args.push('--no-heading', '--with-filename', '--line-number');
    if (request.context > 0) args.push(`--context=${request.context}`, '--no-context-separator');
  } else {
    args.push(request.mode === 'files' ? '--files-with-matches' : '--count', '--with-filename');
  }
  if (request.caseInsensitive) args.push('--ignore-case');
  if (request.glob !== undefined) args.push(`--glob=${request.glob}`);
  args.push('--glob=!.git', `--regexp=${request.pattern}`, '--', request.searchPath);
  return args;
}

/** The argv of a file listing (`glob()`), exposed for the benchmark. */
export function ripgrepFilesArgs(request: Omit<EngineFilesRequest, 'abortSignal'>): string[] {
  return [...baseRipgrepArgs(request.rootReal, request.searchPath, request.order), '--files', `--glob=${request.glob}`, '--glob=!.git', '--', request.searchPath];
}

/** Search engine running the ripgrep binary at `rgPath` and parsing its NUL-separated plain output as it streams. */
export class RipgrepEngine implements SearchEngine {
  readonly name = 'ripgrep';

  constructor(private readonly rgPath: string) {}

  async *search(request: EngineSearchRequest): AsyncIterable<readonly EngineRecord[]> {
    const kind = request.mode === 'content' ? 'content' : request.mode === 'files' ? 'files' : 'count';
    yield* this.run(request.rootReal, ripgrepSearchArgs(request), kind, request.searchPath, request.abortSignal);
  }

  async *listFiles(request: EngineFilesRequest): AsyncIterable<readonly string[]> {
    for await (const batch of this.run(request.rootReal, ripgrepFilesArgs(request), 'files', request.searchPath, request.abortSignal)) {
      yield batch.map((record) => record.path);
    }
  }

  private async *run(cwd: string, args: string[], kind: 'content' | 'files' | 'count', searchPath: string, signal: AbortSignal | undefined): AsyncGenerator<EngineRecord[]> {
    throwIfAborted(signal);
    // Through the spawn helper: a fork of this (large) process would block its event loop.
    const child = spawnThroughHelper(this.rgPath, args, { cwd, env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' } });
    const parser = new RecordParser(kind, searchPath === '.' ? 2 : 0);
    const stderr: Buffer[] = [];
    let stderrBytes = 0;
    child.stderr.on('data', (chunk: Buffer) => {
      // Only the first few KiB matter: they carry the regex error message.
      if (stderrBytes < 8192) stderr.push(chunk);
      stderrBytes += chunk.length;
    });
    const exit = new Promise<number | null>((resolve, reject) => {
      child.once('error', reject);
      child.once('close', (code) => resolve(code));
    });
    exit.catch(() => undefined);
    const onAbort = (): void => {
      child.kill('SIGKILL');
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    let produced = 0;
    let finished = false;
    // Flowing mode with a local queue: parsing happens as soon as bytes arrive and ripgrep is
    // never throttled by async-iterator back-pressure round trips (measured: it cost up to 40%
    // on file listings). The consumer stops early by leaving the loop, which kills ripgrep.
    const queue: EngineRecord[][] = [];
    let ended = false;
    let wake: (() => void) | null = null;
    const notify = (): void => {
      const resume = wake;
      wake = null;
      resume?.();
    };
    child.stdout.on('data', (chunk: Buffer) => {
      const records = parser.push(chunk);
      if (records.length > 0) {
        queue.push(records);
        notify();
      }
    });
    child.stdout.once('close', () => {
      ended = true;
      notify();
    });
    child.stdout.on('error', () => undefined);
    try {
      for (;;) {
        if (queue.length > 0) {
          const batch = queue.length === 1 ? (queue.pop() as EngineRecord[]) : queue.splice(0).flat();
          produced += batch.length;
          yield batch;
          continue;
        }
        if (ended) break;
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
      }
      throwIfAborted(signal);
      const tail = parser.end();
      if (tail.length > 0) {
        produced += tail.length;
        yield tail;
      }
      const code = await exit;
      throwIfAborted(signal);
      finished = true;
      if (code === 2 && produced === 0 && stderrBytes > 0) {
        const message = Buffer.concat(stderr).toString('utf8').trim();
        throw new CodeError('TOOL_ERROR', `invalid search pattern: ${message}`, { details: { errorKind: { type: 'invalid_argument', message } } });
      }
    } catch (error) {
      if (signal?.aborted === true) throw abortError(signal);
      throw error;
    } finally {
      signal?.removeEventListener('abort', onAbort);
      if (!finished) {
        // The consumer stopped early (page full) or failed: stop ripgrep now.
        child.kill('SIGKILL');
        child.stdout.destroy();
      }
    }
  }
}
