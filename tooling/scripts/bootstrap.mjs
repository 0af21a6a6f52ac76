#!/usr/bin/env node
// Zero-dependency entry point behind `npm test` and `npm run demo`, so that a fresh machine with
// only Node and npm needs no other set-up: on a node older than 22.12 it re-runs itself on Node 24
// from the registry package (node-runtime.mjs), finds (or fetches) pnpm 12.4.2, installs the
// workspace from the lockfile, builds what the job needs (turbo, cached), then runs the job.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { reexecOnSupportedNode } from './node-runtime.mjs';

const PNPM_VERSION = '12.4.2';
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const job = process.argv[2];
const extra = process.argv.slice(3);

if (job !== 'test' && job !== 'demo') {
  console.error('usage: bootstrap.mjs test|demo [args...]');
  process.exit(2);
}
reexecOnSupportedNode(job === 'test' ? 'npm test' : 'npm run demo');

const env = { ...process.env, TURBO_TELEMETRY_DISABLED: '1' };

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env, ...options });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

function pnpmCommand() {
  const probe = spawnSync('pnpm', ['--version'], { encoding: 'utf8', env });
  if (probe.status === 0 && probe.stdout.trim() === PNPM_VERSION) return ['pnpm', []];
  return ['npx', ['--yes', `pnpm@${PNPM_VERSION}`]];
}

const [pnpm, pnpmPrefix] = pnpmCommand();

/**
 * A set-up step (install, build). For the demo its output is kept back and shown only when the
 * step fails, so the demo prints its own progress first; `npm test` shows it as it comes.
 */
function setupStep(label, args) {
  if (job === 'demo') {
    process.stderr.write(`setting up: ${label}...\n`);
    const result = spawnSync(pnpm, [...pnpmPrefix, ...args], { cwd: root, env, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
    if (result.error) throw result.error;
    if (result.status !== 0) {
      process.stderr.write(result.stdout ?? '');
      process.stderr.write(result.stderr ?? '');
      process.stderr.write(`setting up: ${label} failed (exit ${result.status})\n`);
      process.exit(result.status ?? 1);
    }
    return;
  }
  const status = run(pnpm, [...pnpmPrefix, ...args]);
  if (status !== 0) process.exit(status);
}

function ensureInstalled() {
  const marker = join(root, 'node_modules', '.modules.yaml');
  const lock = join(root, 'pnpm-lock.yaml');
  if (existsSync(marker) && statSync(marker).mtimeMs >= statSync(lock).mtimeMs) return;
  setupStep('installing the workspace (pnpm install --frozen-lockfile)', ['install', '--frozen-lockfile']);
}

ensureInstalled();

if (job === 'test') {
  // The process-level tests (the CLI binary, second-process persistence, crash safety) run the
  // built packages: build them first (turbo caches, so a second run costs a cache check).
  setupStep('building the packages (turbo run build)', ['exec', 'turbo', 'run', 'build', '--output-logs=errors-only']);
  mkdirSync(join(root, 'reports'), { recursive: true });
  // vitest's default is one worker per core minus one: ONE on a 2-core machine, where much of the
  // suite waits (PostgreSQL takeovers, child processes, chromium, model-server latency) rather than
  // computes. At least two files run at a time (an explicit --maxWorkers in the arguments wins).
  const workers = extra.some((arg) => arg.startsWith('--maxWorkers')) ? [] : [`--maxWorkers=${Math.max(2, availableParallelism())}`];
  console.log(`npm test: vitest on Node ${process.versions.node}${workers.length === 0 ? '' : `, ${workers[0].slice('--maxWorkers='.length)} workers`}`);
  const status = run(pnpm, [...pnpmPrefix, 'exec', 'vitest', 'run', ...workers, '--reporter=default', '--reporter=json', '--outputFile.json=reports/vitest.json', ...extra]);
  const summary = run(process.execPath, [join(root, 'tooling', 'scripts', 'summarize-vitest.mjs'), join(root, 'reports', 'vitest.json')]);
  process.exit(status !== 0 ? status : summary);
} else {
  setupStep('building the CLI (turbo run build --filter=a3s-code...)', ['exec', 'turbo', 'run', 'build', '--filter=a3s-code...', '--output-logs=errors-only']);
  // `npm run demo -- --web`: the same demo in the browser UI (`a3s-code serve --demo`).
  const args = extra.includes('--web') ? ['serve', '--demo', ...extra.filter((a) => a !== '--web')] : ['demo', ...extra];
  process.exit(run(process.execPath, [join(root, 'apps', 'cli', 'dist', 'bin.js'), ...args]));
}
