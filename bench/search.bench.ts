// Search benchmark at real scale: LocalWorkspaceBackend.search()/glob() against ripgrep itself on
// the generated large tree (bench/large-tree.ts: ~210,000 files, ~2.7 GB, a pnpm store next to a
// monorepo; `A3S_BENCH_TREE=small` for a ~21,000-file quick run). Generation is cached under
// os.tmpdir().
//
// The reference is the plain `rg` invocation a user would run (@vscode/ripgrep's binary, default
// parallelism, no sorting), with the same ignore semantics and output format as ours, reading its
// whole output. Rows:
// - grep content / files_with_matches: first page (the tool's default 200 items) and full scan;
// - grep count: full scan and first page (count always scans everything, so both are one scan);
// - glob `**/*.json`: first page in the default (recency) order and in path order, the full
//   listing in both orders, and `session.glob()` (every page of the glob tool through the kernel)
//   in both orders, against `rg --files -g`;
// - paging: 20 pages of files_with_matches through cursors against one full scan, with the number
//   of engine scans the pages cost.
// Run: node --expose-gc --conditions=@a3s-lab/source --import tsx bench/search.bench.ts
import { spawn } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

import { LocalWorkspaceBackend } from '../packages/local/src/index.js';
import { Agent } from '../packages/sdk/src/index.js';
import { findRipgrep, ripgrepFilesArgs, ripgrepSearchArgs } from '../packages/local/src/internal.js';
import { largeTree } from './large-tree.js';

const RUNS = Number(process.env['RUNS'] ?? 3);
const PAGE = 200;
const tree = largeTree();
const root = realpathSync(tree.root);
console.log(
  `tree: ${root}: ${tree.files.toLocaleString('en-US')} files (${tree.ignoredFiles.toLocaleString('en-US')} .gitignored), ${(tree.bytes / 1e9).toFixed(2)} GB` +
    ` (${tree.generated ? `generated in ${(tree.generateMs / 1000).toFixed(1)} s` : 'cached'})`,
);
const pattern = process.argv[2] ?? 'function\\s+\\w+Error|TODO|export default';
const globPattern = '**/*.json';

const rgPath = await findRipgrep();
if (rgPath === null) throw new Error('ripgrep binary not found; the benchmark compares against it');
// A fresh backend per measured call: the result cache must not serve a "full scan" from memory.
const fresh = (): LocalWorkspaceBackend => new LocalWorkspaceBackend(root, { searchEngine: 'ripgrep' });

/** Plain ripgrep: our flags minus `--sort=path` (so default parallelism), reading the whole output. */
function rg(args: string[]): Promise<number> {
  const plain = args.filter((arg) => arg !== '--sort=path');
  return new Promise((resolve, reject) => {
    const child = spawn(rgPath as string, plain, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' } });
    let bytes = 0;
    child.stdout.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
    });
    child.stderr.resume();
    child.once('error', reject);
    child.once('close', () => resolve(bytes));
  });
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

async function time(action: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await action();
  return performance.now() - started;
}

interface Row {
  readonly name: string;
  readonly ours: number;
  readonly rg: number;
  readonly items: string;
  readonly target: number | null;
}

/** Alternates the two sides (warm page cache after a first untimed run of each). */
async function compare(name: string, target: number | null, ours: () => Promise<string>, direct: () => Promise<number>): Promise<Row> {
  const items = await ours();
  await direct();
  const oursTimes: number[] = [];
  const rgTimes: number[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    if (run % 2 === 0) {
      oursTimes.push(await time(ours));
      rgTimes.push(await time(direct));
    } else {
      rgTimes.push(await time(direct));
      oursTimes.push(await time(ours));
    }
  }
  return { name, ours: median(oursTimes), rg: median(rgTimes), items, target };
}

const base = { rootReal: root, searchPath: '.', searchPathIsFile: false, pattern, caseInsensitive: false, context: 0 } as const;
const full = 10_000_000;
const rows: Row[] = [];
const grep = async (outputMode: 'content' | 'files_with_matches' | 'count', limit: number): Promise<string> => {
  const backend = fresh();
  const result = await backend.search({ pattern, outputMode, limit });
  return outputMode === 'content'
    ? `${result.lines?.length ?? 0} lines${result.nextCursor === null ? '' : ' (more)'}`
    : `${result.files?.length ?? 0} files, ${result.totalMatches} lines${result.nextCursor === null ? '' : ' (more)'}`;
};
const rgContent = (): Promise<number> => rg(ripgrepSearchArgs({ ...base, mode: 'content' }));
const rgFiles = (): Promise<number> => rg(ripgrepSearchArgs({ ...base, mode: 'files' }));
const rgCount = (): Promise<number> => rg(ripgrepSearchArgs({ ...base, mode: 'count' }));
const rgGlob = (): Promise<number> => rg(ripgrepFilesArgs({ rootReal: root, searchPath: '.', glob: globPattern }));
const glob = async (sort: 'backend' | 'path', limit: number): Promise<string> => {
  const page = await fresh().glob({ pattern: globPattern, limit, sort });
  return `${page.items.length} paths${page.nextCursor === null ? '' : ' (more)'}`;
};

rows.push(await compare('grep count, full scan', 1.15, () => grep('count', full), rgCount));
rows.push(await compare('grep count, first page', 1.15, () => grep('count', PAGE), rgCount));
rows.push(await compare('grep content, first page', null, () => grep('content', PAGE), rgContent));
rows.push(await compare('grep content, full scan', null, () => grep('content', full), rgContent));
rows.push(await compare('grep files, first page', null, () => grep('files_with_matches', PAGE), rgFiles));
rows.push(await compare('grep files, full scan', null, () => grep('files_with_matches', full), rgFiles));
rows.push(await compare('glob, first page (recency)', 1.2, () => glob('backend', PAGE), rgGlob));
rows.push(await compare('glob, first page (path)', 1.2, () => glob('path', PAGE), rgGlob));
rows.push(await compare('glob, full (path)', 1.2, () => glob('path', full), rgGlob));
rows.push(await compare('glob, full (recency)', 1.2, () => glob('backend', full), rgGlob));
// The SDK's `session.glob()`: every page of the `glob` tool (1,000 paths each) through the kernel
// (host-direct call, events, redaction, output bounds), a fresh session (so a fresh result cache).
const agent = await Agent.create(`default_model = "anthropic/claude-test"
providers "anthropic" {
  api_key = "sk-ant-test-key-000000"
  base_url = "http://127.0.0.1:9"
  models "claude-test" { tool_call = true }
}`);
const sessionGlob = async (sort: 'backend' | 'path'): Promise<string> => {
  const session = await agent.sessionAsync(root, { workspaceBackend: fresh() });
  const paths = await session.glob(globPattern, { sort });
  await session.close();
  return `${paths.length} paths`;
};
rows.push(await compare('session.glob, every page (recency)', 1.2, () => sessionGlob('backend'), rgGlob));
rows.push(await compare('session.glob, every page (path)', 1.2, () => sessionGlob('path'), rgGlob));
await agent.close();

// Paging: 20 pages of files_with_matches through cursors on one backend, against one full scan.
const PAGES = 20;
const pagingLimit = 50;
async function twentyPages(): Promise<string> {
  const backend = fresh();
  let cursor: string | undefined;
  let files = 0;
  for (let page = 0; page < PAGES; page += 1) {
    const result = await backend.search({ pattern, outputMode: 'files_with_matches', limit: pagingLimit, ...(cursor === undefined ? {} : { cursor }) });
    files += result.files?.length ?? 0;
    if (result.nextCursor === null) break;
    cursor = result.nextCursor;
  }
  return `${files} files in ${PAGES} pages`;
}
rows.push(await compare(`${PAGES} pages of ${pagingLimit} files`, null, twentyPages, rgFiles));

console.log(`pattern: /${pattern}/   glob: ${globPattern}   runs: ${RUNS}, medians; reference: plain rg (default threads, unsorted), whole output`);
console.log('row                                    ours ms    rg ms    ratio   target  items');
let failed = 0;
for (const row of rows) {
  const ratio = row.ours / row.rg;
  const ok = row.target === null || ratio <= row.target;
  if (!ok) failed += 1;
  console.log(
    `${row.name.padEnd(36)} ${row.ours.toFixed(1).padStart(9)} ${row.rg.toFixed(1).padStart(8)} ${ratio.toFixed(2).padStart(7)}x  ${row.target === null ? '     ' : `<=${row.target.toFixed(2)}`}${ok ? '' : ' MISSED'}  ${row.items}`,
  );
}
if (failed > 0) console.log(`${failed} target(s) missed (figures are reported, not asserted: the machine may be loaded)`);
