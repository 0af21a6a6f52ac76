#!/usr/bin/env node
// `pnpm bench` (turbo) / `pnpm bench:run [filter]`: runs every benchmark file under bench/ one after another
// in fresh Node processes, so one benchmark's heap never skews the next.
// search.bench.ts runs on a generated ~210,000-file tree (bench/large-tree.ts, written once under
// the OS temp directory and reused); `A3S_BENCH_TREE=small pnpm bench:run search` uses ~21,000 files.
// loop.bench.ts compares the end-to-end job on the built packages when they exist (`pnpm build`).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
// `pnpm bench:run loop,concurrency`: files whose name contains any of the comma-separated filters.
const only = process.argv[2]?.split(',').filter((filter) => filter !== '');
const dir = join(root, 'bench');
const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.bench.ts')).sort() : [];
let failures = 0;
for (const file of files) {
  if (only !== undefined && only.length > 0 && !only.some((filter) => file.includes(filter))) continue;
  console.log(`\n=== ${file} ===`);
  const result = spawnSync(process.execPath, ['--expose-gc', '--conditions=@a3s-lab/source', '--import', 'tsx', join(dir, file)], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) failures += 1;
}
process.exit(failures > 0 ? 1 : 0);
