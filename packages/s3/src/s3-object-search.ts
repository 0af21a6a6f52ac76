import { CodeError } from '@a3s-lab/code-core';
import { anchorGlob, compileGlobRule, decodeCursor, encodeCursor } from '@a3s-lab/code-core/util';
import type { GlobOptions, Page, SearchLine, SearchOptions, SearchResult } from '@a3s-lab/code-core';

/** One object found by a scan: its workspace-relative path, size and modification time. */
export interface ScannedObject {
  readonly relative: string;
  readonly size: number;
  readonly modifiedMs: number;
}

/** The objects under a directory, in key order, and whether the scan limit cut the listing. */
export interface ObjectListing {
  readonly objects: readonly ScannedObject[];
  readonly truncated: boolean;
}

/** What the search needs from the backend: listing (bounded) and reading an object's head. */
export interface ObjectSource {
  /** Every object under `directory` (`.` = the root), at most `maxObjectsScanned`. */
  list(directory: string, abortSignal: AbortSignal | undefined): Promise<ObjectListing>;
  /** The first `bytes` bytes of an object. */
  head(relative: string, bytes: number, abortSignal: AbortSignal | undefined): Promise<Uint8Array>;
}

/** Limits of an object scan. */
export interface ObjectSearchLimits {
  readonly maxObjectsScanned: number;
  readonly maxGrepBytesPerObject: number;
  readonly searchConcurrency: number;
}

const BINARY_SNIFF_BYTES = 8192;
const decoder = new TextDecoder('utf-8');

/**
 * `glob()` over object keys: the ripgrep-compatible glob (anchored to `directory` like the local
 * backend), `path` order = key order, `backend` order = most recently modified first. When the
 * object scan limit cuts the listing the page says `truncated` and warns.
 */
export async function globObjects(source: ObjectSource, directory: string, options: GlobOptions, limits: ObjectSearchLimits): Promise<Page<string>> {
  const limit = checkLimit(options.limit);
  const rule = compileGlobRule(anchorGlob(directory, options.pattern));
  if (rule === null || rule.negated) throw invalidArgument(`glob pattern ${JSON.stringify(options.pattern)} matches nothing: give a non-empty, non-negated pattern`);
  const query = { p: directory, g: options.pattern, s: options.sort };
  const offset = decodeCursor(options.cursor, query);
  const listing = await source.list(directory, options.abortSignal);
  let matched = listing.objects.filter((object) => !rule.directoryOnly && rule.regex.test(object.relative));
  if (options.sort === 'backend') matched = matched.map((object, position) => ({ object, position })).sort((a, b) => b.object.modifiedMs - a.object.modifiedMs || a.position - b.position).map((entry) => entry.object);
  const items = matched.slice(offset, offset + limit).map((object) => object.relative);
  const nextCursor = offset + limit < matched.length ? encodeCursor(offset + limit, query) : null;
  return { items, nextCursor, ...incomplete(listing.truncated ? [scanWarning(limits)] : []) };
}

/** Where a search looks: one object, or every object under a directory (optionally glob-filtered). */
export type SearchTarget = { readonly kind: 'file'; readonly object: ScannedObject } | { readonly kind: 'directory'; readonly directory: string };

/**
 * `search()` over objects: each object's first `maxGrepBytesPerObject` bytes are fetched
 * (`searchConcurrency` at a time, results kept in key order), binary objects (a NUL in the first
 * 8 KiB) skipped, lines matched with a JavaScript RegExp. Cursor pages over lines (content) or
 * files (other modes); content and files_with_matches stop fetching once the page is proven
 * full. Counts are matching lines. A listing cut by `maxObjectsScanned` or an object cut by
 * `maxGrepBytesPerObject` makes the result `truncated` with a warning.
 */
export async function searchObjects(source: ObjectSource, target: SearchTarget, options: SearchOptions, limits: ObjectSearchLimits): Promise<SearchResult> {
  const limit = checkLimit(options.limit);
  const regex = compileRegex(options.pattern, options.caseInsensitive === true);
  const mode = options.outputMode;
  const context = mode === 'content' ? Math.max(0, Math.floor(options.context ?? 0)) : 0;
  const root = target.kind === 'file' ? target.object.relative : target.directory;
  const query = { p: root, r: options.pattern, g: options.glob ?? null, i: options.caseInsensitive === true, c: context, m: mode };
  const offset = mode === 'summary' ? 0 : decodeCursor(options.cursor, query);
  const warnings: string[] = [];
  let objects: readonly ScannedObject[];
  if (target.kind === 'file') {
    objects = [target.object];
  } else {
    const listing = await source.list(target.directory, options.abortSignal);
    if (listing.truncated) warnings.push(scanWarning(limits));
    const rule = options.glob === undefined ? null : compileGlobRule(anchorGlob(target.directory, options.glob));
    objects = rule === null ? listing.objects : listing.objects.filter((object) => !rule.directoryOnly && rule.regex.test(object.relative) !== rule.negated);
  }

  const lines: SearchLine[] = [];
  const files: { path: string; count: number }[] = [];
  let totalMatches = 0;
  let cut = 0;
  const stopAt = mode === 'content' || mode === 'files_with_matches' ? offset + limit + 1 : Number.POSITIVE_INFINITY;
  const produced = (): number => (mode === 'content' ? lines.length : files.length);
  for (let start = 0; start < objects.length && produced() < stopAt; start += limits.searchConcurrency) {
    const batch = objects.slice(start, start + limits.searchConcurrency);
    const bodies = await Promise.all(batch.map((object) => source.head(object.relative, limits.maxGrepBytesPerObject, options.abortSignal)));
    batch.forEach((object, index) => {
      if (produced() >= stopAt) return;
      const body = bodies[index] as Uint8Array;
      if (body.subarray(0, BINARY_SNIFF_BYTES).includes(0)) return;
      const partial = object.size > body.byteLength;
      if (partial) cut += 1;
      const count = scanText(object.relative, textOf(body, partial), regex, mode === 'content' ? { context, out: lines } : null);
      if (count === 0) return;
      totalMatches += mode === 'files_with_matches' ? 1 : count;
      files.push({ path: object.relative, count: mode === 'files_with_matches' ? 1 : count });
    });
  }
  if (cut > 0) warnings.push(`${cut} object(s) larger than maxGrepBytesPerObject (${limits.maxGrepBytesPerObject} bytes) were searched only in their first ${limits.maxGrepBytesPerObject} bytes`);
  const extra = incomplete(warnings);
  const totalFiles = files.length;
  if (mode === 'summary') {
    const top = [...files].sort((a, b) => b.count - a.count || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)).slice(0, limit);
    return { mode, files: top, totalMatches, totalFiles, nextCursor: null, ...extra };
  }
  const total = produced();
  const nextCursor = offset + limit < total ? encodeCursor(offset + limit, query) : null;
  if (mode === 'content') return { mode, lines: lines.slice(offset, offset + limit), totalMatches, totalFiles, nextCursor, ...extra };
  return { mode, files: files.slice(offset, offset + limit), totalMatches, totalFiles, nextCursor, ...extra };
}

/**
 * Matches `regex` line by line; with `content` set, pushes matching lines and up to `context`
 * lines around them (each line once, in order). Returns the number of matching lines.
 */
function scanText(path: string, text: string, regex: RegExp, content: { readonly context: number; readonly out: SearchLine[] } | null): number {
  const all = text.split('\n');
  if (all.length > 0 && all[all.length - 1] === '') all.pop();
  let count = 0;
  let emittedThrough = -1;
  let trailingUntil = -1;
  for (let index = 0; index < all.length; index += 1) {
    const line = stripCr(all[index] as string);
    const hit = regex.test(line);
    if (hit) count += 1;
    if (content === null) continue;
    if (hit) {
      for (let before = Math.max(emittedThrough + 1, index - content.context); before < index; before += 1) {
        content.out.push({ path, line: before + 1, text: stripCr(all[before] as string), match: false });
      }
      content.out.push({ path, line: index + 1, text: line, match: true });
      emittedThrough = index;
      trailingUntil = index + content.context;
    } else if (index <= trailingUntil) {
      content.out.push({ path, line: index + 1, text: line, match: false });
      emittedThrough = index;
    }
  }
  return count;
}

/** Decodes a body; a body cut by the byte limit loses its incomplete last line. */
function textOf(body: Uint8Array, partial: boolean): string {
  if (!partial) return decoder.decode(body);
  const end = body.lastIndexOf(10);
  return end === -1 ? '' : decoder.decode(body.subarray(0, end + 1));
}

function stripCr(line: string): string {
  return line.endsWith('\r') ? line.slice(0, -1) : line;
}

function incomplete(warnings: readonly string[]): { truncated?: true; warnings?: readonly string[] } {
  return warnings.length === 0 ? {} : { truncated: true, warnings };
}

function scanWarning(limits: ObjectSearchLimits): string {
  return `the scan stopped at maxObjectsScanned (${limits.maxObjectsScanned} objects): totals and paths are incomplete`;
}

/** Compiles a search pattern as a JavaScript RegExp (Unicode mode, else legacy mode). */
function compileRegex(pattern: string, caseInsensitive: boolean): RegExp {
  const flags = caseInsensitive ? 'i' : '';
  for (const extra of ['u', '']) {
    try {
      return new RegExp(pattern, `${flags}${extra}`);
    } catch (error) {
      if (extra === '') throw invalidArgument(`invalid search pattern: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  throw invalidArgument('invalid search pattern');
}

function checkLimit(limit: number): number {
  if (!Number.isSafeInteger(limit) || limit < 1) throw invalidArgument(`limit must be a positive integer, got ${String(limit)}`);
  return limit;
}

function invalidArgument(message: string): CodeError {
  return new CodeError('TOOL_ERROR', message, { details: { errorKind: { type: 'invalid_argument', message } } });
}
