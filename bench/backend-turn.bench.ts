// Host CPU of the file-system half of a read turn and an edit turn, as the kernel and the tools
// drive a LocalWorkspaceBackend: resolvePath (permission target) + readFile, then resolvePath
// (for write) + readFile + a versioned writeFile, 4 files at a time. Reference in the same run:
// what a bare loop's tools do for the same turns (fs.readFile, then fs.readFile + fs.writeFile).
// Main-thread CPU (process.threadCpuUsage) and process CPU (libuv's pool included), medians of
// alternating rounds; in a workspace without and with a git repository (its core.hooksPath is
// checked before every write).
// Run: node --conditions=@a3s-lab/source --import tsx bench/backend-turn.bench.ts   (ROUNDS=7, PAIRS=400)
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalWorkspaceBackend } from '../packages/local/src/index.js';

const ROUNDS = Number(process.env['ROUNDS'] ?? 7);
const PAIRS = Number(process.env['PAIRS'] ?? 400);
const CONCURRENT = 4;
const BODY = Array.from({ length: 200 }, (_, index) => `export const value${index} = ${index};`).join('\n');

type Pair = (slot: number, iteration: number) => Promise<void>;

function workspace(git: boolean): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'a3s-backend-turn-')));
  mkdirSync(join(root, 'src'));
  for (let slot = 0; slot < CONCURRENT; slot += 1) writeFileSync(join(root, 'src', `app${slot}.ts`), BODY);
  if (git) execFileSync('git', ['init', '-q'], { cwd: root });
  return root;
}

function ours(root: string): Pair {
  const backend = new LocalWorkspaceBackend(root);
  return async (slot, iteration) => {
    const path = `src/app${slot}.ts`;
    await backend.resolvePath({ path });
    await backend.readFile({ path });
    await backend.resolvePath({ path, forWrite: true });
    const file = await backend.readFile({ path });
    if (file === null) throw new Error('file vanished');
    await backend.writeFile({ path, content: Buffer.from(`${BODY}\n// ${iteration}`), expectedVersion: file.version });
  };
}

function bare(root: string): Pair {
  return async (slot, iteration) => {
    const path = join(root, 'src', `app${slot}.ts`);
    await readFile(path, 'utf8');
    await readFile(path, 'utf8');
    await writeFile(path, `${BODY}\n// ${iteration}`);
  };
}

async function measure(pair: Pair): Promise<{ main: number; process: number }> {
  const batch = async (base: number): Promise<void> => {
    await Promise.all(Array.from({ length: CONCURRENT }, (_, slot) => pair(slot, base + slot)));
  };
  for (let index = 0; index < 5; index += 1) await batch(index * CONCURRENT);
  const thread = process.threadCpuUsage();
  const all = process.cpuUsage();
  for (let index = 0; index < PAIRS; index += CONCURRENT) await batch(index);
  const threadUsed = process.threadCpuUsage(thread);
  const allUsed = process.cpuUsage(all);
  return { main: (threadUsed.user + threadUsed.system) / PAIRS, process: (allUsed.user + allUsed.system) / PAIRS };
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

for (const git of [false, true]) {
  const root = workspace(git);
  const sides = { ours: ours(root), bare: bare(root) };
  const results = { ours: { main: [] as number[], process: [] as number[] }, bare: { main: [] as number[], process: [] as number[] } };
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const side of round % 2 === 0 ? (['ours', 'bare'] as const) : (['bare', 'ours'] as const)) {
      const { main, process: all } = await measure(sides[side]);
      results[side].main.push(main);
      results[side].process.push(all);
    }
  }
  const oursMain = median(results.ours.main);
  const bareMain = median(results.bare.main);
  const oursAll = median(results.ours.process);
  const bareAll = median(results.bare.process);
  console.log(
    `${git ? 'git repository' : 'plain directory'}: read turn + edit turn, ours ${oursMain.toFixed(0)} us main thread / ${oursAll.toFixed(0)} us process, ` +
      `bare fs ${bareMain.toFixed(0)} / ${bareAll.toFixed(0)} us: ${(oursMain / bareMain).toFixed(2)}x / ${(oursAll / bareAll).toFixed(2)}x (median of ${ROUNDS}, ${PAIRS} pairs each)`,
  );
  rmSync(root, { recursive: true, force: true });
}
