import { CodeError } from '@a3s-lab/code-core';

import { throwIfAborted } from '@a3s-lab/code-core/util';
import { readRegularFile } from '../open-regular-file.js';
import { walkFiles } from './fallback-walk.js';
import type { EngineFilesRequest, EngineLine, EngineRecord, EngineSearchRequest, SearchEngine } from './search-engine.js';

/**
 * Pure TypeScript search engine used when the ripgrep binary is absent (or forced). Same walk,
 * ignore and ordering rules as the ripgrep engine; regular expressions are JavaScript's, which
 * accept the common subset of ripgrep's syntax (see the README for the differences). A file
 * containing a NUL byte is treated as binary and skipped, like ripgrep does for directory walks.
 */
export class FallbackEngine implements SearchEngine {
  readonly name = 'fallback';

  async *search(request: EngineSearchRequest): AsyncIterable<readonly EngineRecord[]> {
    const regex = compilePattern(request.pattern, request.caseInsensitive);
    const files = request.searchPathIsFile
      ? single(request.searchPath)
      : walkFiles({ rootReal: request.rootReal, directory: request.searchPath, globs: request.glob === undefined ? [] : [request.glob], ...signalOf(request.abortSignal) });
    for await (const batch of files) {
      const out: EngineRecord[] = [];
      for (const path of batch) {
        throwIfAborted(request.abortSignal);
        let content: Buffer | null;
        try {
          // Only regular files: a FIFO swapped in after the walk must not block a pool thread.
          content = await readRegularFile(`${request.rootReal}/${path}`, path);
        } catch {
          continue;
        }
        if (content === null) continue;
        if (content.includes(0)) continue;
        scanFile(path, content.toString('utf8'), regex, request, out);
      }
      if (out.length > 0) yield out;
    }
  }

  async *listFiles(request: EngineFilesRequest): AsyncIterable<readonly string[]> {
    yield* walkFiles({ rootReal: request.rootReal, directory: request.searchPath, globs: [request.glob], ...signalOf(request.abortSignal) });
  }
}

/**
 * Compiles a search pattern as a JavaScript RegExp (Unicode mode first, legacy mode when the
 * pattern is only valid there, e.g. `\-` outside a class).
 *
 * @throws CodeError `TOOL_ERROR` with `details.errorKind` `invalid_argument`.
 */
export function compilePattern(pattern: string, caseInsensitive: boolean): RegExp {
  const flags = caseInsensitive ? 'i' : '';
  try {
    return new RegExp(pattern, `${flags}u`);
  } catch {
    try {
      return new RegExp(pattern, flags);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      throw new CodeError('TOOL_ERROR', `invalid search pattern: ${message}`, { details: { errorKind: { type: 'invalid_argument', message } } });
    }
  }
}

function scanFile(path: string, text: string, regex: RegExp, request: EngineSearchRequest, out: EngineRecord[]): void {
  const lines = text.split('\n');
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  if (request.mode !== 'content') {
    let count = 0;
    for (const line of lines) {
      if (regex.test(line)) {
        count += 1;
        if (request.mode === 'files') break;
      }
    }
    if (count > 0) out.push({ kind: 'file', path, count: request.mode === 'files' ? 1 : count });
    return;
  }
  const context = request.context;
  let printedUpTo = -1;
  let pendingAfter = -1;
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index] as string;
    if (!regex.test(line)) {
      if (index <= pendingAfter && index > printedUpTo) {
        out.push(lineRecord(path, index, line, false));
        printedUpTo = index;
      }
      continue;
    }
    for (let before = Math.max(printedUpTo + 1, index - context); before < index; before += 1) {
      out.push(lineRecord(path, before, lines[before] as string, false));
    }
    out.push(lineRecord(path, index, line, true));
    printedUpTo = index;
    pendingAfter = index + context;
  }
}

function lineRecord(path: string, index: number, text: string, match: boolean): EngineLine {
  return { kind: 'line', path, line: index + 1, text, match };
}

async function* single(path: string): AsyncGenerator<string[]> {
  yield [path];
}

function signalOf(signal: AbortSignal | undefined): { abortSignal?: AbortSignal } {
  return signal === undefined ? {} : { abortSignal: signal };
}
