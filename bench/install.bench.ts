// Install footprint benchmark (issue 18): what a user gets from `npm install @a3s-lab/code` (both
// provider clients, bundled into our provider packages; no MCP, no S3), side by side with `ai` +
// `@ai-sdk/anthropic` installed the same way in the same run: installed bytes, package count and
// the time to import the package in a fresh Node process (median of alternating runs).
// Target: import of @a3s-lab/code <= 1.3x the import of `ai`.
//
// Builds what it packs (turbo, cached), packs every workspace package as `pnpm publish` would
// and installs from the tarballs with pnpm (store first, registry for what it lacks).
// Run: node --conditions=@a3s-lab/source --import tsx bench/install.bench.ts
import { spawnSync } from 'node:child_process';
import { lstatSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { catalogVersion, cleanEnv, installProject, packAll, root, run } from '../tooling/pack-check/packed-install.mjs';

const ROUNDS = 15;

/** Bytes of every file under `dir` (symlinks counted once, as links) and the number of packages in pnpm's virtual store. */
function footprint(dir: string): { bytes: number; packages: number } {
  let bytes = 0;
  const walk = (path: string): void => {
    const stat = lstatSync(path);
    if (stat.isSymbolicLink()) return;
    if (stat.isDirectory()) for (const entry of readdirSync(path)) walk(join(path, entry));
    else bytes += stat.size;
  };
  walk(join(dir, 'node_modules'));
  const packages = readdirSync(join(dir, 'node_modules', '.pnpm')).filter((name) => name !== 'node_modules' && !name.startsWith('.') && !name.startsWith('lock')).length;
  return { bytes, packages };
}

/** Wall time of `import(specifiers...)` in a fresh Node process started in `dir`, in ms. */
function importMs(dir: string, specifiers: readonly string[]): number {
  const script = `const t = performance.now(); ${specifiers.map((s) => `await import(${JSON.stringify(s)});`).join(' ')} process.stdout.write(String(performance.now() - t));`;
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: dir, encoding: 'utf8', env: cleanEnv() });
  if (result.status !== 0) throw new Error(`import of ${specifiers.join(', ')} failed:\n${result.stderr}`);
  return Number(result.stdout);
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};
const mib = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

run('pnpm', ['exec', 'turbo', 'run', 'build', '--filter=@a3s-lab/code...', '--filter=@a3s-lab/code-testing...', '--filter=@a3s-lab/code-mcp...', '--filter=a3s-code...', '--output-logs=errors-only'], { cwd: root });
const work = mkdtempSync(join(tmpdir(), 'a3s-install-bench-'));
try {
  const tarballs = packAll(join(work, 'tarballs'));
  const ours = join(work, 'a3s');
  const theirs = join(work, 'ai');
  installProject(ours, tarballs, { '@a3s-lab/code': undefined });
  installProject(theirs, tarballs, { ai: `^${catalogVersion('ai')}`, '@ai-sdk/anthropic': `^${catalogVersion('@ai-sdk/anthropic')}` });

  const cases = [
    { name: '@a3s-lab/code', dir: ours, specifiers: ['@a3s-lab/code'] },
    { name: 'ai', dir: theirs, specifiers: ['ai'] },
    { name: 'ai + @ai-sdk/anthropic', dir: theirs, specifiers: ['ai', '@ai-sdk/anthropic'] },
  ];
  const samples = new Map(cases.map((c) => [c.name, [] as number[]]));
  for (const c of cases) importMs(c.dir, c.specifiers); // warm the file cache
  for (let round = 0; round < ROUNDS; round += 1) for (const c of cases) samples.get(c.name)?.push(importMs(c.dir, c.specifiers));

  const oursSize = footprint(ours);
  const theirsSize = footprint(theirs);
  const oursImport = median(samples.get('@a3s-lab/code') ?? []);
  const aiImport = median(samples.get('ai') ?? []);
  console.log('installed (no MCP, no S3):');
  console.log(`  @a3s-lab/code                       ${mib(oursSize.bytes).padStart(10)}  ${String(oursSize.packages).padStart(3)} packages`);
  console.log(`  ai + @ai-sdk/anthropic              ${mib(theirsSize.bytes).padStart(10)}  ${String(theirsSize.packages).padStart(3)} packages   ratio ${(oursSize.bytes / theirsSize.bytes).toFixed(2)}x`);
  console.log(`import on Node ${process.versions.node}, median of ${ROUNDS} fresh processes:`);
  for (const c of cases) console.log(`  ${c.name.padEnd(34)} ${median(samples.get(c.name) ?? []).toFixed(1).padStart(7)} ms`);
  console.log(`  @a3s-lab/code / ai: ${(oursImport / aiImport).toFixed(2)}x (target <= 1.3x)`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
