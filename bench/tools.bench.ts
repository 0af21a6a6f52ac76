// Benchmarks of the built-in tools over a real LocalWorkspaceBackend, each against a direct
// node:fs reference measured in the same run:
//   1. `read` of 32 files in one call (files mode) vs reading the same 32 files with fs.readFile;
//   2. `edit` of a 10 MB file (one replacement: read, diff metadata, hashes, versioned write)
//      vs a direct string replace + fs.writeFile.
// Prints medians and ratios. Run: node --expose-gc --conditions=@a3s-lab/source --import tsx bench/tools.bench.ts
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { InvocationRuntime } from '../packages/core/src/index.js';
import type { AnyTool, ToolContext, WorkspaceBackend } from '../packages/core/src/index.js';
import { LocalWorkspaceBackend } from '../packages/local/src/index.js';
import { createEditTool, createReadTool } from '../packages/tools/src/index.js';

const gc = (globalThis as { gc?: () => void }).gc;

function context(workspace: WorkspaceBackend, toolName: string): ToolContext {
  return {
    toolId: 'bench',
    toolName,
    origin: 'host-direct',
    sessionId: 'bench',
    abortSignal: new AbortController().signal,
    workspace,
    runtime: new InvocationRuntime(null),
    ancestry: [],
    services: {},
    emitOutputDelta: () => undefined,
    storeArtifact: () => `a3s://tool-output/${toolName}/bench`,
  };
}

async function median(runs: number, body: (iteration: number) => Promise<void>): Promise<number> {
  const times: number[] = [];
  await body(-1); // warm-up
  for (let i = 0; i < runs; i += 1) {
    gc?.();
    const start = performance.now();
    await body(i);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] as number;
}

async function execute(tool: AnyTool, workspace: WorkspaceBackend, args: Record<string, unknown>): Promise<string> {
  const result = await tool.execute(args, context(workspace, tool.name));
  if (result.exitCode !== undefined && result.exitCode !== 0) throw new Error(`${tool.name} failed: ${result.output.slice(0, 300)}`);
  return result.output;
}

const base = await mkdtemp(join(tmpdir(), 'a3s-tools-bench-'));
try {
  const workspace = new LocalWorkspaceBackend(base);
  const read = createReadTool();
  const edit = createEditTool();

  // 32 source-like files of ~60 lines each (fits the default 64 KiB budget).
  const paths: string[] = [];
  for (let f = 0; f < 32; f += 1) {
    const path = `src/file-${f}.ts`;
    paths.push(path);
    const body = Array.from({ length: 60 }, (_, i) => `export const value${i} = ${f * 1000 + i}; // line ${i}`).join('\n');
    await workspace.writeFile({ path, content: `${body}\n` });
  }
  const readTool = await median(30, async () => {
    await execute(read, workspace, { files: paths.map((path) => ({ path })) });
  });
  const readDirect = await median(30, async () => {
    await Promise.all(paths.map((path) => readFile(join(base, path), 'utf8')));
  });

  // A 10 MB file with one unique marker in the middle.
  const line = 'const filler = "lorem ipsum dolor sit amet consectetur adipiscing elit";\n';
  const half = line.repeat(Math.floor(5_000_000 / line.length));
  const bigPath = 'big/ten-mb.ts';
  await workspace.writeFile({ path: bigPath, content: `${half}// MARKER 0\n${half}` });
  const bigSize = (await workspace.stat({ path: bigPath }))?.size ?? 0;
  let marker = 0;
  const editTool = await median(7, async () => {
    await execute(edit, workspace, { file_path: bigPath, old_string: `// MARKER ${marker}\n`, new_string: `// MARKER ${marker + 1}\n` });
    marker += 1;
  });
  const absolute = join(base, bigPath);
  const editDirect = await median(7, async () => {
    const text = await readFile(absolute, 'utf8');
    await writeFile(absolute, text.replace(`// MARKER ${marker}\n`, `// MARKER ${marker + 1}\n`));
    marker += 1;
  });
  await workspace.close();

  const ratio = (a: number, b: number): string => `${(a / b).toFixed(2)}x`;
  console.log(`read 32 files in one call (files mode):  median ${readTool.toFixed(2)} ms  vs node:fs readFile x32 ${readDirect.toFixed(2)} ms  ratio ${ratio(readTool, readDirect)}`);
  console.log(`edit of a ${(bigSize / 1e6).toFixed(1)} MB file:                median ${editTool.toFixed(2)} ms  vs string replace + fs.writeFile ${editDirect.toFixed(2)} ms  ratio ${ratio(editTool, editDirect)}`);
  console.log('(tool figures include confinement, line rendering/byte budget, diff + sha256 metadata and an atomic versioned write)');
} finally {
  await rm(base, { recursive: true, force: true });
}
