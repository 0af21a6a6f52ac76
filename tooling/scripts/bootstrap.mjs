#!/usr/bin/env node
// Zero-dependency entry point behind `npm test` and `npm run demo`, so that a fresh machine with
// only Node 20 and npm needs no other set-up: it finds (or fetches) pnpm 12.4.2, installs the
// workspace from the lockfile, then runs the requested job.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const PNPM_VERSION = '12.4.2';
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const job = process.argv[2];
const extra = process.argv.slice(3);

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' }, ...options });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

function pnpmCommand() {
  const probe = spawnSync('pnpm', ['--version'], { encoding: 'utf8' });
  if (probe.status === 0 && probe.stdout.trim() === PNPM_VERSION) return ['pnpm', []];
  return ['npx', ['--yes', `pnpm@${PNPM_VERSION}`]];
}

const [pnpm, pnpmPrefix] = pnpmCommand();
// The demo prints progress on stderr and only the session's answer on stdout: set-up output
// (install, build) goes to stderr too, so stdout stays the answer.
const setupStdio = job === 'demo' ? ['inherit', 2, 'inherit'] : 'inherit';
const pnpmRun = (args) => run(pnpm, [...pnpmPrefix, ...args], { stdio: setupStdio });

function ensureInstalled() {
  const marker = join(root, 'node_modules', '.modules.yaml');
  const lock = join(root, 'pnpm-lock.yaml');
  if (existsSync(marker) && statSync(marker).mtimeMs >= statSync(lock).mtimeMs) return;
  const status = pnpmRun(['install', '--frozen-lockfile']);
  if (status !== 0) process.exit(status);
}

ensureInstalled();

if (job === 'test') {
  mkdirSync(join(root, 'reports'), { recursive: true });
  const status = pnpmRun(['exec', 'vitest', 'run', '--reporter=default', '--reporter=json', '--outputFile.json=reports/vitest.json', ...extra]);
  const summary = run(process.execPath, [join(root, 'tooling', 'scripts', 'summarize-vitest.mjs'), join(root, 'reports', 'vitest.json')]);
  process.exit(status !== 0 ? status : summary);
} else if (job === 'demo') {
  const build = pnpmRun(['exec', 'turbo', 'run', 'build', '--filter=a3s-code...', '--output-logs=errors-only']);
  if (build !== 0) process.exit(build);
  // `npm run demo -- --web`: the same demo in the browser UI (`a3s-code serve --demo`).
  const args = extra.includes('--web') ? ['serve', '--demo', ...extra.filter((a) => a !== '--web')] : ['demo', ...extra];
  process.exit(run(process.execPath, [join(root, 'apps', 'cli', 'dist', 'bin.js'), ...args]));
} else {
  console.error(`usage: bootstrap.mjs test|demo`);
  process.exit(2);
}
