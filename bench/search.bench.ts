// Search benchmark: LocalWorkspaceBackend.search()/glob() against the ripgrep binary run directly
// with the same flags, on a large real tree (this repository's node_modules, .pnpm store included).
// Run: node --expose-gc --conditions=source --import tsx bench/search.bench.ts [pattern]
import { spawn } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';

import { LocalWorkspaceBackend } from '../packages/local/src/index.js';
import { findRipgrep, ripgrepFilesArgs, ripgrepSearchArgs } from '../packages/local/src/internal.js';

const RUNS = Number(process.env['RUNS'] ?? 7);
// Listings take ~40 ms, so more runs are cheap and keep the median stable on a busy machine.
const GLOB_RUNS = RUNS * 3;
const TARGETS = { content: 1.15, files_with_matches: 1.15, count: 1.15, glob: 1.2 } as const;
const root = realpathSync(join(dirname(fileURLToPath(import.meta.url)), '..', 'node_modules'));
const pattern = process.argv[2] ?? 'function\\s+\\w+Error|TODO|export default';
const globPattern = '**/*.{js,ts,json}';

const rgPath = await findRipgrep();
if (rgPath === null) throw new Error('ripgrep binary not found; the benchmark compares against it');
const backend = new LocalWorkspaceBackend(root, { searchEngine: 'ripgrep' });

/** Runs ripgrep directly, reading its whole output; returns the byte count. */
function rgDirect(args: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(rgPath as string, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' } });
    let bytes = 0;
    child.stdout.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
    });
    child.stderr.resume();
    child.once('error', reject);
    child.once('close', () => resolve(bytes));
  });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

// No gc() per run: a forced full GC flushes compiled code, which penalises whichever side runs
// more JavaScript and measures V8 recompilation instead of search.
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
  readonly target: number;
}

async function compare(name: keyof typeof TARGETS, ours: () => Promise<string>, direct: () => Promise<number>, runs = RUNS): Promise<Row> {
  // Warm-up fills the page cache for both sides; then the two alternate so machine noise hits both.
  const items = await ours();
  await direct();
  const oursTimes: number[] = [];
  const rgTimes: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    if (run % 2 === 0) {
      oursTimes.push(await time(ours));
      rgTimes.push(await time(direct));
    } else {
      rgTimes.push(await time(direct));
      oursTimes.push(await time(ours));
    }
  }
  return { name, ours: median(oursTimes), rg: median(rgTimes), items, target: TARGETS[name] };
}

const base = { rootReal: root, searchPath: '.', searchPathIsFile: false, pattern, caseInsensitive: false, context: 0 } as const;
const limit = 10_000_000;
const rows: Row[] = [];

rows.push(
  await compare(
    'content',
    async () => {
      const result = await backend.search({ pattern, outputMode: 'content', limit });
      return `${result.lines?.length ?? 0} lines, ${result.totalFiles} files`;
    },
    () => rgDirect(ripgrepSearchArgs({ ...base, mode: 'content' })),
  ),
);
rows.push(
  await compare(
    'files_with_matches',
    async () => {
      const result = await backend.search({ pattern, outputMode: 'files_with_matches', limit });
      return `${result.files?.length ?? 0} files`;
    },
    () => rgDirect(ripgrepSearchArgs({ ...base, mode: 'files' })),
  ),
);
rows.push(
  await compare(
    'count',
    async () => {
      const result = await backend.search({ pattern, outputMode: 'count', limit });
      return `${result.totalMatches} matching lines in ${result.totalFiles} files`;
    },
    () => rgDirect(ripgrepSearchArgs({ ...base, mode: 'count' })),
  ),
);
rows.push(
  await compare(
    'glob',
    async () => {
      const page = await backend.glob({ pattern: globPattern, limit, sort: 'path' });
      return `${page.items.length} paths`;
    },
    () => rgDirect(ripgrepFilesArgs({ rootReal: root, searchPath: '.', glob: globPattern })),
    GLOB_RUNS,
  ),
);

console.log(`tree: ${root}   pattern: /${pattern}/   glob: ${globPattern}   runs: ${RUNS} (glob ${GLOB_RUNS}), medians`);
console.log('mode                 backend ms   rg ms    ratio   target  items');
let failed = 0;
for (const row of rows) {
  const ratio = row.ours / row.rg;
  const ok = ratio <= row.target;
  if (!ok) failed += 1;
  console.log(
    `${row.name.padEnd(20)} ${row.ours.toFixed(1).padStart(10)} ${row.rg.toFixed(1).padStart(7)} ${ratio.toFixed(3).padStart(8)}x  <=${row.target.toFixed(2)}${ok ? '' : ' MISSED'}  ${row.items}`,
  );
}
await backend.close();
if (failed > 0) console.log(`${failed} target(s) missed (figures are reported, not asserted: the machine may be loaded)`);
