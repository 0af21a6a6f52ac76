
import { CodeError } from '../errors/code-error.js';
import { HostFailure } from '../errors/host-failure.js';
import type { SearchResult, WorkspaceBackend } from '../workspace/workspace-backend.js';
import { expect } from './contract-expect.js';
import type { ContractRunner } from './contract-runner.js';

/** What a contract-suite factory returns: a fresh, empty workspace and how to dispose of it. */
export interface WorkspaceContractFixture {
  readonly backend: WorkspaceBackend;
  /** Removes the workspace (and closes the backend when needed). */
  cleanup(): Promise<void>;
}

/** Options of {@link describeWorkspaceContract}. */
export interface WorkspaceContractOptions {
  /** The test runner's `describe` and `it` (vitest's or node:test's): the suite imports none. */
  readonly runner: ContractRunner;
  /** Case titles to skip (exact `it` titles), for documented backend limitations. Default none. */
  readonly skip?: readonly string[];
  /**
   * Checks that a refused write left nothing outside the workspace: called with the file name the
   * suite tried to write as `../<name>`; must return true when such a file exists outside. Default:
   * not checked (a backend that cannot look outside itself has nothing to check).
   */
  readonly outsideExists?: (name: string) => Promise<boolean>;
  /** Per-case timeout in ms. Default 30000 (process cases on a loaded machine). */
  readonly timeoutMs?: number;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * Registers the workspace contract suite: every {@link WorkspaceBackend} implementation (local,
 * S3, memory...) runs the same cases. Each case gets a fresh workspace from `factory`. Cases
 * adapt to the declared capabilities: write cases need `write`, listing `list`, glob/search
 * `search`, exec `exec`, git `git`, conditional writes `versionedWrites`; cases a backend cannot
 * serve are skipped, never silently passed.
 *
 * @example
 * import { describe, it } from 'node:test'; // or 'vitest'
 * describeWorkspaceContract('LocalWorkspaceBackend', async () => {
 *   const dir = await mkdtemp(join(tmpdir(), 'ws-'));
 *   return { backend: new LocalWorkspaceBackend(dir), cleanup: () => rm(dir, { recursive: true, force: true }) };
 * }, { runner: { describe, it } });
 */
export function describeWorkspaceContract(name: string, factory: () => Promise<WorkspaceContractFixture>, options: WorkspaceContractOptions): void {
  const { describe, it } = options.runner;
  const skip = new Set(options.skip ?? []);
  const timeout = options.timeoutMs ?? 30_000;

  describe(`workspace contract: ${name}`, () => {
    let fixture: WorkspaceContractFixture | undefined;
    const backend = (): WorkspaceBackend => {
      if (fixture === undefined) throw new Error('fixture not ready');
      return fixture.backend;
    };

    // Declares a case on a fresh fixture that needs some capabilities; skipped (visibly) when the
    // backend lacks one. Cases of one suite run one at a time (both runners' default), so the
    // suite-level `fixture` belongs to the running case.
    const test = (title: string, needs: readonly (keyof WorkspaceBackend['capabilities'])[], body: () => Promise<void>): void => {
      it(title, async (context) => {
        fixture = await factory();
        try {
          if (skip.has(title) || needs.some((capability) => !backend().capabilities[capability])) {
            context.skip(skip.has(title) ? 'skipped by the backend' : `needs ${needs.join(', ')}`);
            return;
          }
          await body();
        } finally {
          await fixture.cleanup();
          fixture = undefined;
        }
      }, timeout);
    };

    const write = async (path: string, content: string | Uint8Array): Promise<string> => {
      const writeFile = backend().writeFile;
      if (writeFile === undefined) throw new Error('backend declares write but has no writeFile');
      return (await writeFile.call(backend(), { path, content })).version;
    };

    test('declares capabilities consistent with its methods', [], async () => {
      const b = backend();
      expect(typeof b.kind).toBe('string');
      expect(typeof b.root).toBe('string');
      expect(b.capabilities.write).toBe(typeof b.writeFile === 'function');
      expect(b.capabilities.list).toBe(typeof b.list === 'function');
      expect(b.capabilities.search).toBe(typeof b.search === 'function' && typeof b.glob === 'function');
      expect(b.capabilities.exec).toBe(typeof b.exec === 'function');
      expect(b.capabilities.git).toBe(typeof b.git === 'function');
    });

    test('round-trips utf-8 text byte for byte', ['write'], async () => {
      const text = 'héllo wörld ✓ 🚀\r\nline two\n';
      await write('notes/utf8.txt', text);
      const file = await backend().readFile({ path: 'notes/utf8.txt' });
      expect(file).not.toBeNull();
      expect(file?.path).toBe('notes/utf8.txt');
      expect(Array.from(file?.content ?? [])).toEqual(Array.from(encoder.encode(text)));
      expect(decoder.decode(file?.content)).toBe(text);
      expect(file?.size).toBe(encoder.encode(text).length);
    });

    test('round-trips binary content byte for byte', ['write'], async () => {
      const bytes = new Uint8Array(1024 + 256);
      for (let index = 0; index < bytes.length; index += 1) bytes[index] = (index * 7 + 3) % 256;
      bytes[10] = 0;
      await write('data/blob.bin', bytes);
      const file = await backend().readFile({ path: 'data/blob.bin' });
      expect(Array.from(file?.content ?? [])).toEqual(Array.from(bytes));
      expect(file?.size).toBe(bytes.length);
    });

    test('returns null for missing files and stats', [], async () => {
      expect(await backend().readFile({ path: 'missing.txt' })).toBeNull();
      expect(await backend().readFile({ path: 'no/such/dir/file.txt' })).toBeNull();
      expect(await backend().stat({ path: 'missing.txt' })).toBeNull();
    });

    test('stats a file with its size and the version readFile reports', ['write'], async () => {
      const version = await write('s/stat.txt', '12345');
      const stat = await backend().stat({ path: 's/stat.txt' });
      expect(stat).toMatchObject({ path: 's/stat.txt', type: 'file', size: 5, version });
      expect(Number.isFinite(stat?.modifiedMs)).toBe(true);
      expect((await backend().readFile({ path: 's/stat.txt' }))?.version).toBe(version);
    });

    test('changes the version on every write, even with the same content', ['write'], async () => {
      const first = await write('v.txt', 'same');
      const second = await write('v.txt', 'same');
      const third = await write('v.txt', 'other');
      expect(second).not.toBe(first);
      expect(third).not.toBe(second);
      expect((await backend().stat({ path: 'v.txt' }))?.version).toBe(third);
    });

    test('honours conditional writes (match, mismatch, create-only)', ['write', 'versionedWrites'], async () => {
      const b = backend();
      const writeFile = b.writeFile?.bind(b);
      if (writeFile === undefined) throw new Error('no writeFile');
      const created = await writeFile({ path: 'c.txt', content: 'one', expectedVersion: null });
      const updated = await writeFile({ path: 'c.txt', content: 'two', expectedVersion: created.version });
      expect(updated.version).not.toBe(created.version);

      const stale = await writeFile({ path: 'c.txt', content: 'three', expectedVersion: created.version }).catch((error: unknown) => error);
      expect(HostFailure.isHostFailure(stale)).toBe(true);
      expect((stale as HostFailure).reason).toBe('Conflict');

      const again = await writeFile({ path: 'c.txt', content: 'four', expectedVersion: null }).catch((error: unknown) => error);
      expect((again as HostFailure).reason).toBe('Conflict');
      expect(decoder.decode((await b.readFile({ path: 'c.txt' }))?.content)).toBe('two');
    });

    test('deletes files, conditionally too', ['write', 'versionedWrites'], async () => {
      const b = backend();
      if (b.deleteFile === undefined) return;
      const version = await write('d.txt', 'x');
      await write('d.txt', 'y');
      const stale = await b.deleteFile({ path: 'd.txt', expectedVersion: version }).catch((error: unknown) => error);
      expect((stale as HostFailure).reason).toBe('Conflict');
      expect(await b.deleteFile({ path: 'd.txt' })).toBe(true);
      expect(await b.deleteFile({ path: 'd.txt' })).toBe(false);
      expect(await b.readFile({ path: 'd.txt' })).toBeNull();
    });

    test('creates nested directories on write', ['write', 'list'], async () => {
      await write('a/b/c/d/deep.txt', 'deep');
      expect(decoder.decode((await backend().readFile({ path: 'a/b/c/d/deep.txt' }))?.content)).toBe('deep');
      const page = await backend().list?.({ path: 'a/b', limit: 10 });
      expect(page?.items.map((entry) => [entry.name, entry.path, entry.type])).toEqual([['c', 'a/b/c', 'directory']]);
    });

    test('lists with pagination covering every entry exactly once', ['write', 'list'], async () => {
      const names = ['e1.txt', 'e2.txt', 'e3.txt', 'e4.txt', 'e5.txt'];
      for (const entry of names) await write(`dir/${entry}`, entry);
      await write('dir/sub1/x.txt', 'x');
      await write('dir/sub2/y.txt', 'y');
      const seen: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = await backend().list?.({ path: 'dir', limit: 3, ...(cursor === undefined ? {} : { cursor }) });
        expect(page).not.toBeNull();
        expect(page?.items.length).toBeLessThanOrEqual(3);
        for (const entry of page?.items ?? []) {
          seen.push(entry.name);
          expect(entry.path).toBe(`dir/${entry.name}`);
          expect(entry.type).toBe(entry.name.startsWith('sub') ? 'directory' : 'file');
          if (entry.type === 'file') expect(entry.size).toBe(entry.name.length);
        }
        cursor = page?.nextCursor ?? undefined;
        pages += 1;
      } while (cursor !== undefined && pages < 10);
      expect([...seen].sort()).toEqual([...names, 'sub1', 'sub2'].sort());
      expect(new Set(seen).size).toBe(seen.length);
      expect(pages).toBe(3);
      expect(await backend().list?.({ path: 'no-such-dir', limit: 3 })).toBeNull();
    });

    test('resolves paths to their canonical workspace-relative form', [], async () => {
      const b = backend();
      expect(await b.resolvePath({ path: './x/../y/z.txt' })).toBe('y/z.txt');
      expect(await b.resolvePath({ path: 'y//z.txt' })).toBe('y/z.txt');
      expect(await b.resolvePath({ path: 'y/./z.txt' })).toBe('y/z.txt');
      expect(await b.resolvePath({ path: '.' })).toBe('.');
      if (b.root.startsWith('/')) {
        expect(await b.resolvePath({ path: `${b.root}/inside/file.txt` })).toBe('inside/file.txt');
      }
    });

    test('accepts absolute paths that resolve inside the root', ['write'], async () => {
      const b = backend();
      if (!b.root.startsWith('/')) return;
      await write(`${b.root}/abs/inside.txt`, 'inside');
      expect(decoder.decode((await b.readFile({ path: 'abs/inside.txt' }))?.content)).toBe('inside');
      expect((await b.readFile({ path: `${b.root}/abs/inside.txt` }))?.path).toBe('abs/inside.txt');
    });

    test('refuses paths that lead out with SECURITY_ERROR and writes nothing outside', [], async () => {
      const b = backend();
      const name = `contract-escape-${Math.random().toString(36).slice(2)}.txt`;
      const escaping = [`../${name}`, `../../${name}`, `a/../../${name}`, '/etc/passwd', `/${name}`, 'bad\0name.txt', `ok/../..`];
      for (const path of escaping) {
        await expectSecurityError(b.resolvePath({ path }), path);
        await expectSecurityError(b.readFile({ path }), path);
        await expectSecurityError(b.stat({ path }), path);
        if (b.writeFile !== undefined) await expectSecurityError(b.writeFile({ path, content: 'escape' }), path);
        if (b.list !== undefined) await expectSecurityError(b.list({ path, limit: 10 }), path);
      }
      if (options.outsideExists !== undefined) expect(await options.outsideExists(name)).toBe(false);
    });

    test('globs with path order, a base path and pagination', ['write', 'search'], async () => {
      const b = backend();
      for (const path of ['src/a.ts', 'src/b.ts', 'src/lib/c.ts', 'src/lib/d.js', 'docs/readme.md', 'top.ts']) await write(path, `// ${path}\n`);
      const all = await b.glob?.({ pattern: '**/*.ts', limit: 100, sort: 'path' });
      expect(all?.items).toEqual(['src/a.ts', 'src/b.ts', 'src/lib/c.ts', 'top.ts']);
      expect(all?.nextCursor).toBeNull();
      const based = await b.glob?.({ pattern: 'lib/*.ts', path: 'src', limit: 100, sort: 'path' });
      expect(based?.items).toEqual(['src/lib/c.ts']);
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await b.glob?.({ pattern: '**/*', limit: 2, sort: 'path', ...(cursor === undefined ? {} : { cursor }) });
        expect(page?.items.length).toBeLessThanOrEqual(2);
        seen.push(...(page?.items ?? []));
        cursor = page?.nextCursor ?? undefined;
      } while (cursor !== undefined && seen.length < 100);
      expect([...seen].sort()).toEqual(['docs/readme.md', 'src/a.ts', 'src/b.ts', 'src/lib/c.ts', 'src/lib/d.js', 'top.ts']);
      const recent = await b.glob?.({ pattern: '**/*.ts', limit: 100, sort: 'backend' });
      expect([...(recent?.items ?? [])].sort()).toEqual(['src/a.ts', 'src/b.ts', 'src/lib/c.ts', 'top.ts']);
    });

    test('searches in every output mode', ['write', 'search'], async () => {
      const b = backend();
      await write('s/one.txt', 'alpha\nneedle one\nbeta\nNEEDLE two\ngamma\n');
      await write('s/two.txt', 'needle three\n');
      await write('s/three.md', 'no match here\n');
      const search = b.search?.bind(b);
      if (search === undefined) throw new Error('no search');

      const content = await search({ pattern: 'needle', path: 's', outputMode: 'content', limit: 100 });
      expect(content.lines).toEqual([
        { path: 's/one.txt', line: 2, text: 'needle one', match: true },
        { path: 's/two.txt', line: 1, text: 'needle three', match: true },
      ]);
      expect(content).toMatchObject({ mode: 'content', totalMatches: 2, totalFiles: 2, nextCursor: null });

      const insensitive = await search({ pattern: 'needle', path: 's/one.txt', caseInsensitive: true, outputMode: 'content', limit: 100 });
      expect(insensitive.lines?.map((line) => line.line)).toEqual([2, 4]);

      const withContext = await search({ pattern: 'two', path: 's/one.txt', context: 1, outputMode: 'content', limit: 100 });
      expect(withContext.lines?.map((line) => [line.line, line.match])).toEqual([[3, false], [4, true], [5, false]]);

      const files = await search({ pattern: 'needle', caseInsensitive: true, outputMode: 'files_with_matches', limit: 100 });
      expect(files.files?.map((file) => file.path)).toEqual(['s/one.txt', 's/two.txt']);
      expect(files.lines).toBeUndefined();

      const counts = await search({ pattern: 'needle', caseInsensitive: true, outputMode: 'count', limit: 100 });
      expect(counts.files).toEqual([{ path: 's/one.txt', count: 2 }, { path: 's/two.txt', count: 1 }]);
      expect(counts).toMatchObject({ totalMatches: 3, totalFiles: 2 });

      const summary = await search({ pattern: 'needle', caseInsensitive: true, outputMode: 'summary', limit: 1 });
      expect(summary).toMatchObject({ mode: 'summary', totalMatches: 3, totalFiles: 2, files: [{ path: 's/one.txt', count: 2 }] });

      const globbed = await search({ pattern: 'match', glob: '*.md', outputMode: 'files_with_matches', limit: 100 });
      expect(globbed.files?.map((file) => file.path)).toEqual(['s/three.md']);
    });

    test('pages search results with a cursor covering every line exactly once', ['write', 'search'], async () => {
      const b = backend();
      await write('p/a.txt', 'hit 1\nmiss\nhit 2\n');
      await write('p/b.txt', 'hit 3\nhit 4\nhit 5\n');
      const lines: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      let last: SearchResult | undefined;
      do {
        last = await b.search?.({ pattern: 'hit', outputMode: 'content', limit: 2, ...(cursor === undefined ? {} : { cursor }) });
        expect(last?.lines?.length).toBeLessThanOrEqual(2);
        lines.push(...(last?.lines ?? []).map((line) => `${line.path}:${line.line}`));
        cursor = last?.nextCursor ?? undefined;
        pages += 1;
      } while (cursor !== undefined && pages < 10);
      expect(lines).toEqual(['p/a.txt:1', 'p/a.txt:3', 'p/b.txt:1', 'p/b.txt:2', 'p/b.txt:3']);
      expect(pages).toBe(3);
      expect(last?.totalMatches).toBe(5);
    });

    test('rejects an invalid regular expression with TOOL_ERROR invalid_argument', ['write', 'search'], async () => {
      await write('r.txt', 'text\n');
      const error = await backend().search?.({ pattern: 'a(b', outputMode: 'content', limit: 10 }).catch((caught: unknown) => caught);
      expect(CodeError.hasCode(error, 'TOOL_ERROR')).toBe(true);
      expect((error as CodeError).details['errorKind']).toMatchObject({ type: 'invalid_argument' });
      expect(typeof ((error as CodeError).details['errorKind'] as { message?: unknown }).message).toBe('string');
    });

    test('runs commands with separate streams, exit code and cwd', ['exec', 'write'], async () => {
      const b = backend();
      await write('work/sub/marker.txt', 'm');
      const result = await b.exec?.({ command: 'echo out; echo err >&2; exit 3', timeoutMs: 20_000 });
      expect(result).toMatchObject({ stdout: 'out\n', stderr: 'err\n', exitCode: 3, timedOut: false, cancelled: false, droppedBytes: 0, stdoutBytes: 4, stderrBytes: 4 });
      const listing = await b.exec?.({ command: 'ls', cwd: 'work/sub', timeoutMs: 20_000 });
      expect(listing?.stdout).toBe('marker.txt\n');
      const env = await b.exec?.({ command: 'printf %s "$CONTRACT_VALUE"', env: { CONTRACT_VALUE: 'passed' }, timeoutMs: 20_000 });
      expect(env?.stdout).toBe('passed');
      await expectSecurityError(b.exec?.({ command: 'pwd', cwd: '..', timeoutMs: 20_000 }) ?? Promise.resolve(), '..');
    });

    test('ends a command at its timeout', ['exec'], async () => {
      const result = await backend().exec?.({ command: 'sleep 30', timeoutMs: 500 });
      expect(result?.timedOut).toBe(true);
      expect(result?.exitCode).toBeNull();
    });

    test('bounds captured output with exact accounting', ['exec'], async () => {
      const result = await backend().exec?.({ command: 'head -c 100000 /dev/zero | tr "\\0" x', maxOutputBytes: 1000, timeoutMs: 20_000 });
      expect(result?.stdoutBytes).toBe(100_000);
      expect(result?.droppedBytes).toBe(99_000);
      expect(result?.stdout.startsWith('x'.repeat(500))).toBe(true);
      expect(result?.stdout.endsWith('x'.repeat(500))).toBe(true);
    });

    test('runs git in the workspace', ['git', 'write'], async () => {
      const b = backend();
      const init = await b.git?.({ args: ['init', '-q'] });
      expect(init?.exitCode).toBe(0);
      await write('tracked.txt', 'x\n');
      const status = await b.git?.({ args: ['status', '--porcelain'] });
      expect(status?.exitCode).toBe(0);
      expect(status?.stdout).toContain('tracked.txt');
    });

    test('rejects calls whose abort signal is already aborted', [], async () => {
      const b = backend();
      const signal = AbortSignal.abort();
      const calls: Promise<unknown>[] = [b.readFile({ path: 'x.txt', abortSignal: signal }), b.stat({ path: 'x.txt', abortSignal: signal }), b.resolvePath({ path: 'x.txt', abortSignal: signal })];
      if (b.writeFile !== undefined) calls.push(b.writeFile({ path: 'x.txt', content: 'x', abortSignal: signal }));
      if (b.list !== undefined) calls.push(b.list({ path: '.', limit: 10, abortSignal: signal }));
      if (b.glob !== undefined) calls.push(b.glob({ pattern: '*', limit: 10, sort: 'path', abortSignal: signal }));
      if (b.search !== undefined) calls.push(b.search({ pattern: 'x', outputMode: 'content', limit: 10, abortSignal: signal }));
      if (b.exec !== undefined) calls.push(b.exec({ command: 'true', timeoutMs: 10_000, abortSignal: signal }));
      for (const call of calls) {
        const error = await call.then(() => undefined, (caught: unknown) => caught);
        expect((error as { name?: unknown } | undefined)?.name).toBe('AbortError');
      }
      expect(await b.readFile({ path: 'x.txt' })).toBeNull();
    });

    test('stops a running command when its signal aborts', ['exec'], async () => {
      const controller = new AbortController();
      const running = backend().exec?.({ command: 'sleep 30', timeoutMs: 60_000, abortSignal: controller.signal });
      setTimeout(() => controller.abort(), 300);
      const error = await running?.then(() => undefined, (caught: unknown) => caught);
      expect((error as { name?: unknown } | undefined)?.name).toBe('AbortError');
    });
  });
}

async function expectSecurityError(promise: Promise<unknown>, path: string): Promise<void> {
  const outcome = await promise.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
  if (outcome.ok) throw new Error(`expected SECURITY_ERROR for ${JSON.stringify(path)}, got a result`);
  if (!CodeError.hasCode(outcome.error, 'SECURITY_ERROR')) {
    throw new Error(`expected SECURITY_ERROR for ${JSON.stringify(path)}, got ${String((outcome.error as { code?: unknown })?.code ?? outcome.error)}`);
  }
}
