import { mkdir, mkdtemp, realpath, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { GlobOptions, SearchOptions } from '@a3s-lab/code-core';

import { LocalWorkspaceBackend } from '../src/index.js';

// A tree exercising everything the two engines must agree on: nested and negated .gitignore
// rules, anchored and directory-only patterns, hidden files, `.git`, symlinks, binary files,
// CRLF, Unicode, names needing glob escapes, overlapping context.
const FILES: Record<string, string | Buffer> = {
  '.gitignore': 'dist/\n*.log\n/root-only.txt\n!keep.log\nbuild\n# comment\n',
  'root-only.txt': 'needle root-only\n',
  'keep.log': 'needle kept log\n',
  'drop.log': 'needle dropped log\n',
  '.hidden/config.txt': 'needle hidden\n',
  '.env': 'NEEDLE=1\n',
  '.git/HEAD': 'needle in git\n',
  'dist/out.js': 'needle dist\n',
  'build/x.txt': 'needle build\n',
  'src/index.ts': 'import x from "y";\nconst needle = 1;\n// Needle again\nexport { needle };\n',
  'src/util/helpers.ts': 'a\nb\nneedle\nc\nd\nneedle\ne\nf\ng\nh\nneedle\n',
  'src/util/.gitignore': 'generated.ts\n/local-only.ts\n!important.log\n',
  'src/util/generated.ts': 'needle generated\n',
  'src/util/local-only.ts': 'needle local\n',
  'src/util/deeper/local-only.ts': 'needle deeper local\n',
  'src/util/important.log': 'needle important\n',
  'src/[weird]{name}/file.ts': 'needle weird\n',
  'src/crlf.txt': 'line one\r\nneedle crlf\r\nlast\r\n',
  'src/unicode.txt': 'héllo NEEDLE wörld\nüber needle\n',
  'src/no-newline.txt': 'first\nneedle at end',
  'docs/readme.md': '# Needle\nSome needle text\n',
  'docs/guide/intro.md': 'needle intro\n',
  'bin/data.bin': Buffer.from([0x6e, 0x65, 0x65, 0x64, 0x6c, 0x65, 0x00, 0x01, 0x02]),
  'a-b/file.txt': 'needle dash\n',
  'a/file.txt': 'needle slash\n',
};

let parent = '';
let root = '';
const engines = (): [LocalWorkspaceBackend, LocalWorkspaceBackend] => [
  new LocalWorkspaceBackend(root, { searchEngine: 'ripgrep' }),
  new LocalWorkspaceBackend(root, { searchEngine: 'fallback' }),
];

beforeAll(async () => {
  parent = await realpath(await mkdtemp(join(tmpdir(), 'a3s-equiv-')));
  root = join(parent, 'ws');
  let time = 1_700_000_000;
  for (const [path, content] of Object.entries(FILES)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), content);
    time += 10;
    // Distinct mtimes so the recency order of glob(sort: backend) is fully determined.
    await utimes(join(root, path), time, time);
  }
  await writeFile(join(parent, 'outside.txt'), 'needle outside\n');
  await symlink(join(parent, 'outside.txt'), join(root, 'src', 'link-out.txt'));
  await symlink('index.ts', join(root, 'src', 'link-in.ts'));
});

afterAll(async () => {
  await rm(parent, { recursive: true, force: true });
});

const searches: (Omit<SearchOptions, 'limit' | 'outputMode'> & { limit?: number })[] = [
  { pattern: 'needle' },
  { pattern: 'needle', caseInsensitive: true },
  { pattern: 'needle', path: 'src' },
  { pattern: 'needle', path: 'src/util' },
  { pattern: 'needle', path: 'src/util/deeper' },
  { pattern: 'needle', path: 'src/util/generated.ts' },
  { pattern: 'needle', glob: '*.ts' },
  { pattern: 'needle', glob: '!*.ts' },
  { pattern: 'needle', glob: 'src/**/*.ts' },
  { pattern: 'needle', glob: '*.{md,txt}' },
  { pattern: 'needle', glob: 'util/*.ts', path: 'src' },
  { pattern: 'needle', glob: '*.log' },
  { pattern: 'needle', context: 2, path: 'src/util' },
  { pattern: 'needle', context: 1 },
  { pattern: '^needle$' },
  { pattern: 'n[e]+dle\\s\\w+' },
  { pattern: 'end$' },
  { pattern: 'NEEDLE|Needle' },
  { pattern: 'needle', limit: 3 },
];

const globs: Omit<GlobOptions, 'limit'>[] = [
  { pattern: '**/*', sort: 'path' },
  { pattern: '**', sort: 'backend' },
  { pattern: '*.ts', sort: 'path' },
  { pattern: '**/*.md', sort: 'path' },
  { pattern: 'util/**', path: 'src', sort: 'path' },
  { pattern: '*', path: 'src/util', sort: 'backend' },
  { pattern: '.*', sort: 'path' },
  { pattern: '*.log', sort: 'path' },
  { pattern: 'src/[[]weird]*/*', sort: 'path' },
  { pattern: '{docs,bin}/**', sort: 'path' },
  { pattern: '/*.txt', sort: 'path' },
];

describe('ripgrep and fallback engines give identical results', () => {
  it('uses each engine as configured', async () => {
    const [rg, fallback] = engines();
    expect(await rg.searchEngineName()).toBe('ripgrep');
    expect(await fallback.searchEngineName()).toBe('fallback');
  });

  it.each(searches.flatMap((query) => (['content', 'files_with_matches', 'count', 'summary'] as const).map((outputMode) => ({ ...query, outputMode, limit: query.limit ?? 1000 }))))(
    'search %j',
    async (query) => {
      const [rg, fallback] = engines();
      const pages = async (backend: LocalWorkspaceBackend): Promise<unknown[]> => {
        const out: unknown[] = [];
        let cursor: string | undefined;
        do {
          const result = await backend.search({ ...query, ...(cursor === undefined ? {} : { cursor }) });
          out.push(result);
          cursor = result.nextCursor ?? undefined;
        } while (cursor !== undefined && out.length < 50);
        return out;
      };
      const expected = await pages(rg);
      expect(await pages(fallback)).toEqual(expected);
      expect(JSON.stringify(expected)).not.toContain('outside');
    },
  );

  it('finds what ripgrep semantics promise in this tree', async () => {
    const [rg] = engines();
    const result = await rg.search({ pattern: 'needle', outputMode: 'files_with_matches', limit: 1000 });
    expect(result.files?.map((file) => file.path)).toEqual([
      '.hidden/config.txt',
      'a/file.txt',
      'a-b/file.txt',
      'docs/guide/intro.md',
      'docs/readme.md',
      'keep.log',
      'src/[weird]{name}/file.ts',
      'src/crlf.txt',
      'src/index.ts',
      'src/no-newline.txt',
      'src/unicode.txt',
      'src/util/deeper/local-only.ts',
      'src/util/helpers.ts',
      'src/util/important.log',
    ]);
  });

  it.each(globs.flatMap((query) => [1000, 4].map((limit) => ({ ...query, limit }))))('glob %j', async (query) => {
    const [rg, fallback] = engines();
    const pages = async (backend: LocalWorkspaceBackend): Promise<unknown[]> => {
      const out: unknown[] = [];
      let cursor: string | undefined;
      do {
        const page = await backend.glob({ ...query, ...(cursor === undefined ? {} : { cursor }) });
        out.push(page);
        cursor = page.nextCursor ?? undefined;
      } while (cursor !== undefined && out.length < 50);
      return out;
    };
    const expected = await pages(rg);
    expect(await pages(fallback)).toEqual(expected);
  });

  it('rejects an invalid pattern the same way', async () => {
    for (const backend of engines()) {
      await expect(backend.search({ pattern: '(unclosed', outputMode: 'count', limit: 10 })).rejects.toMatchObject({ code: 'TOOL_ERROR', details: { errorKind: { type: 'invalid_argument' } } });
    }
  });

  it('rejects a cursor from another query', async () => {
    const [rg] = engines();
    const first = await rg.search({ pattern: 'needle', outputMode: 'content', limit: 1 });
    expect(first.nextCursor).not.toBeNull();
    await expect(rg.search({ pattern: 'other', outputMode: 'content', limit: 1, cursor: first.nextCursor ?? '' })).rejects.toMatchObject({ code: 'TOOL_ERROR' });
  });
});
