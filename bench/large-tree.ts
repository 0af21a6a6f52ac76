// Deterministic generator of a large workspace tree for the search benchmarks: a pnpm-store-like
// `node_modules/.pnpm` (package.json, JS/TS sources of varied sizes, maps, READMEs, a few binaries)
// next to a monorepo (`packages/*/src`, with `.gitignore`d `dist/` and `coverage/` directories).
//
// The tree is written once under os.tmpdir() and reused: its directory name carries a hash of the
// plan (every path, size and content offset), and a manifest written next to it after the last file
// records that hash. A tree is reused only when the manifest matches and a sample of files has the
// planned sizes; anything else is deleted and regenerated.
//
// Scale: `A3S_BENCH_TREE=small` gives ~21,000 files (quick runs); the default is ~210,000 files
// (~3 GB), the size of the issue's pnpm-store copy.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync, openSync, writeSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** Bump when the plan or the contents change, so old caches are not reused. */
const GENERATOR_VERSION = 1;

/** A generated tree. */
export interface LargeTree {
  /** Absolute path of the tree's root. */
  readonly root: string;
  readonly files: number;
  readonly bytes: number;
  /** Files under `.gitignore`d directories (not searched by default). */
  readonly ignoredFiles: number;
  /** True when this call wrote the tree (false: a verified cache was reused). */
  readonly generated: boolean;
  readonly generateMs: number;
}

type Kind = 'js' | 'ts' | 'json' | 'md' | 'map' | 'bin' | 'text';

interface PlannedFile {
  readonly path: string;
  readonly kind: Kind;
  readonly size: number;
  readonly offset: number;
  readonly ignored: boolean;
}

/** mulberry32: small, fast, deterministic. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = [
  'value', 'result', 'options', 'config', 'handler', 'request', 'response', 'buffer', 'stream', 'parse', 'token', 'node', 'visit',
  'module', 'export', 'import', 'cache', 'entry', 'index', 'length', 'target', 'source', 'error', 'message', 'context', 'state',
  'update', 'render', 'create', 'resolve', 'reject', 'promise', 'callback', 'listener', 'emit', 'event', 'queue', 'worker', 'path',
];

/** Size buckets (cumulative probability, min, max bytes): mostly small files, a long tail. */
const SIZES: readonly (readonly [number, number, number])[] = [
  [0.45, 300, 4_096],
  [0.8, 4_096, 16_384],
  [0.95, 16_384, 49_152],
  [0.995, 49_152, 163_840],
  [1, 163_840, 655_360],
];

const POOL_BYTES = 24 * 1024 * 1024;
const MAX_FILE = 655_360;

function pickSize(next: () => number, scale = 1): number {
  const roll = next();
  for (const [p, min, max] of SIZES) if (roll <= p) return Math.floor((min + next() * (max - min)) * scale);
  return 1_000;
}

function word(next: () => number): string {
  return WORDS[Math.floor(next() * WORDS.length)] as string;
}

/** Code-like lines; a few carry what the benchmark searches for (TODO, `function xError`, `export default`). */
function codeLine(next: () => number): string {
  const roll = next();
  const a = word(next);
  const b = word(next);
  const n = Math.floor(next() * 1000);
  if (roll < 0.004) return `  // TODO: ${a} ${b} ${n} needs a proper ${word(next)}`;
  if (roll < 0.006) return `function ${a}${n}Error(${b}) { return new Error(${b}); }`;
  if (roll < 0.008) return `export default ${a}${n};`;
  if (roll < 0.2) return `function ${a}${n}(${b}, ${word(next)}) {`;
  if (roll < 0.35) return `  const ${a}${n} = ${b}.${word(next)}(${n});`;
  if (roll < 0.45) return `  if (${a} === undefined) return ${b};`;
  if (roll < 0.55) return '}';
  if (roll < 0.62) return '';
  if (roll < 0.75) return `  ${a}.${b}(${n}, '${word(next)} ${word(next)}');`;
  if (roll < 0.85) return `    return ${a}${n} + ${b}.length * ${n};`;
  return `  /* ${a} ${b} ${word(next)} ${word(next)} ${n} */`;
}

function jsonLine(next: () => number): string {
  return `  "${word(next)}${Math.floor(next() * 10_000)}": ${next() < 0.5 ? `"${word(next)} ${word(next)}"` : String(Math.floor(next() * 1e6))},`;
}

function textPool(seed: number, line: (next: () => number) => string): Buffer {
  const next = random(seed);
  const parts: string[] = [];
  let bytes = 0;
  while (bytes < POOL_BYTES) {
    const text = `${line(next)}\n`;
    parts.push(text);
    bytes += text.length;
  }
  return Buffer.from(parts.join(''), 'latin1');
}

function binaryPool(seed: number): Buffer {
  const next = random(seed);
  const pool = Buffer.alloc(4 * 1024 * 1024);
  for (let i = 0; i < pool.length; i += 4) pool.writeUInt32LE(Math.floor(next() * 4294967296), i);
  // Runs of NUL bytes so ripgrep's binary detection sees them early.
  for (let i = 0; i < pool.length; i += 512) pool.fill(0, i, i + 16);
  return pool;
}

/** Number of files a scale plans (before the exact count of the plan). */
function scaleFiles(scale: 'full' | 'small'): number {
  return scale === 'full' ? 210_000 : 21_000;
}

function plan(scale: 'full' | 'small'): PlannedFile[] {
  const next = random(0x5eed + (scale === 'full' ? 0 : 1));
  const files: PlannedFile[] = [];
  const target = scaleFiles(scale);
  const add = (path: string, kind: Kind, size: number, ignored = false): void => {
    const poolSize = kind === 'bin' ? 4 * 1024 * 1024 : POOL_BYTES;
    const clamped = Math.max(64, Math.min(size, MAX_FILE, poolSize - 1));
    files.push({ path, kind, size: clamped, offset: Math.floor(next() * (poolSize - clamped)), ignored });
  };
  // The monorepo: ~8% of the files, plus .gitignore'd build output (~5%).
  const packages = Math.max(4, Math.round(target / 1_400));
  for (let p = 0; p < packages; p += 1) {
    const pkg = `packages/${word(next)}-${p}`;
    add(`${pkg}/package.json`, 'json', 600 + Math.floor(next() * 900));
    add(`${pkg}/README.md`, 'md', pickSize(next, 0.5));
    const sources = 60 + Math.floor(next() * 120);
    for (let s = 0; s < sources; s += 1) {
      const depth = Math.floor(next() * 3);
      let dir = `${pkg}/src`;
      for (let d = 0; d < depth; d += 1) dir += `/${word(next)}${Math.floor(next() * 4)}`;
      add(`${dir}/${word(next)}-${s}.ts`, 'ts', pickSize(next, 0.6));
      if (next() < 0.3) add(`${dir}/${word(next)}-${s}.test.ts`, 'ts', pickSize(next, 0.5));
    }
    const built = 40 + Math.floor(next() * 60);
    for (let s = 0; s < built; s += 1) {
      add(`${pkg}/dist/${word(next)}-${s}.js`, 'js', pickSize(next, 0.8), true);
      if (next() < 0.4) add(`${pkg}/coverage/${word(next)}-${s}.json`, 'json', pickSize(next, 0.3), true);
    }
  }
  // The pnpm store: packages of 5-120 files until the target is reached.
  let index = 0;
  while (files.length < target) {
    const name = next() < 0.3 ? `@${word(next)}/${word(next)}-${index}` : `${word(next)}-${word(next)}-${index}`;
    const version = `${Math.floor(next() * 9)}.${Math.floor(next() * 20)}.${Math.floor(next() * 30)}`;
    const base = `node_modules/.pnpm/${name.replace('/', '+')}@${version}/node_modules/${name}`;
    add(`${base}/package.json`, 'json', 400 + Math.floor(next() * 2_500));
    add(`${base}/LICENSE`, 'text', 1_000 + Math.floor(next() * 200));
    if (next() < 0.8) add(`${base}/README.md`, 'md', pickSize(next));
    const count = 3 + Math.floor(next() ** 2 * 117);
    for (let f = 0; f < count; f += 1) {
      const roll = next();
      const dir = roll < 0.4 ? 'lib' : roll < 0.7 ? 'dist' : roll < 0.85 ? `lib/${word(next)}` : `dist/${word(next)}/${word(next)}`;
      const leaf = `${word(next)}${f}`;
      const kindRoll = next();
      if (kindRoll < 0.55) add(`${base}/${dir}/${leaf}.js`, 'js', pickSize(next));
      else if (kindRoll < 0.75) add(`${base}/${dir}/${leaf}.d.ts`, 'ts', pickSize(next, 0.4));
      else if (kindRoll < 0.88) add(`${base}/${dir}/${leaf}.js.map`, 'map', pickSize(next));
      else if (kindRoll < 0.96) add(`${base}/${dir}/${leaf}.json`, 'json', pickSize(next, 0.5));
      else add(`${base}/${dir}/${leaf}.${next() < 0.5 ? 'wasm' : 'png'}`, 'bin', pickSize(next));
    }
    index += 1;
  }
  return files;
}

function planHash(scale: string, files: readonly PlannedFile[]): string {
  const hash = createHash('sha256').update(`a3s-bench-tree v${GENERATOR_VERSION} ${scale}\n`);
  for (const file of files) hash.update(`${file.path}\0${file.kind}\0${file.size}\0${file.offset}\n`);
  return hash.digest('hex');
}

interface Manifest {
  readonly version: number;
  readonly hash: string;
  readonly files: number;
  readonly bytes: number;
  readonly ignoredFiles: number;
}

function verified(root: string, manifestPath: string, hash: string, files: readonly PlannedFile[]): Manifest | null {
  if (!existsSync(manifestPath) || !existsSync(root)) return null;
  let manifest: Manifest;
  try {
    manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
  } catch {
    return null;
  }
  if (manifest.version !== GENERATOR_VERSION || manifest.hash !== hash || manifest.files !== files.length) return null;
  // Spot-check: every 97th planned file exists with the planned size.
  for (let i = 0; i < files.length; i += 97) {
    const file = files[i] as PlannedFile;
    try {
      if (statSync(join(root, file.path)).size !== expectedSize(file)) return null;
    } catch {
      return null;
    }
  }
  return manifest;
}

function header(file: PlannedFile): Buffer {
  if (file.kind === 'bin') return Buffer.alloc(0);
  if (file.kind === 'json') return Buffer.from(`{\n  "name": "${file.path.replace(/"/g, '')}",\n`, 'latin1');
  return Buffer.from(file.kind === 'md' || file.kind === 'text' ? `# ${file.path}\n` : `// ${file.path}\n`, 'latin1');
}

const JSON_TAIL = Buffer.from('  "end": true\n}\n', 'latin1');

function expectedSize(file: PlannedFile): number {
  return header(file).length + file.size + (file.kind === 'json' ? JSON_TAIL.length : 0);
}

/**
 * Returns the large tree for `scale` (env `A3S_BENCH_TREE`, default `full`), generating it under
 * `os.tmpdir()` unless a verified copy is there.
 */
export function largeTree(scale: 'full' | 'small' = process.env['A3S_BENCH_TREE'] === 'small' ? 'small' : 'full', log: (line: string) => void = console.log): LargeTree {
  const started = performance.now();
  const files = plan(scale);
  const hash = planHash(scale, files);
  const root = join(tmpdir(), `a3s-bench-tree-${scale}-${hash.slice(0, 12)}`);
  const manifestPath = `${root}.manifest.json`;
  const ignoredFiles = files.filter((file) => file.ignored).length;
  const existing = verified(root, manifestPath, hash, files);
  if (existing !== null) {
    return { root, files: existing.files, bytes: existing.bytes, ignoredFiles, generated: false, generateMs: performance.now() - started };
  }
  log(`generating ${files.length} files under ${root} (cached for later runs)...`);
  rmSync(manifestPath, { force: true });
  rmSync(root, { recursive: true, force: true });
  const code = textPool(1, codeLine);
  const json = textPool(2, jsonLine);
  const binary = binaryPool(3);
  const made = new Set<string>();
  let bytes = 0;
  mkdirSync(root, { recursive: true });
  writeFileSync(join(root, '.gitignore'), 'dist/\ncoverage/\n*.log\n');
  bytes += 20;
  for (const file of files) {
    const path = join(root, file.path);
    const dir = dirname(path);
    if (!made.has(dir)) {
      mkdirSync(dir, { recursive: true });
      made.add(dir);
    }
    const pool = file.kind === 'bin' ? binary : file.kind === 'json' ? json : code;
    const fd = openSync(path, 'w');
    const head = header(file);
    if (head.length > 0) writeSync(fd, head);
    writeSync(fd, pool, file.offset, file.size);
    if (file.kind === 'json') writeSync(fd, JSON_TAIL);
    closeSync(fd);
    bytes += expectedSize(file);
  }
  const manifest: Manifest = { version: GENERATOR_VERSION, hash, files: files.length, bytes, ignoredFiles };
  writeFileSync(manifestPath, JSON.stringify(manifest, null, 2));
  return { root, files: files.length, bytes, ignoredFiles, generated: true, generateMs: performance.now() - started };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const tree = largeTree();
  console.log(JSON.stringify(tree));
}
