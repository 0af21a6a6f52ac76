// Packing the workspace and installing tarballs into clean projects: shared by the packed-install
// check (run.mjs) and bench/install.bench.ts.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * The environment of the clean projects: without NODE_PATH, which `pnpm exec` / `pnpm run` point
 * at the workspace's hoisted packages (it would make a package the consumer did not install
 * resolvable).
 */
export function cleanEnv(extra = {}) {
  const env = { ...process.env, TURBO_TELEMETRY_DISABLED: '1', ...extra };
  delete env.NODE_PATH;
  return env;
}

/** Runs a command; throws with its output when it fails. */
export function run(command, args, options = {}) {
  const result = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, env: cleanEnv(), ...options });
  if (result.error) throw new Error(`${command} ${args.join(' ')} (in ${options.cwd ?? process.cwd()}): ${result.error.message}\n${result.stdout ?? ''}\n${result.stderr ?? ''}`);
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} (in ${options.cwd ?? process.cwd()}) exited ${result.status}\n${result.stdout}\n${result.stderr}`);
  }
  return result.stdout;
}

/** Every workspace package that ships (packages/*, apps/*), with its manifest. */
export function workspacePackages() {
  return ['packages', 'apps'].flatMap((group) =>
    readdirSync(join(root, group))
      .map((name) => join(root, group, name))
      .filter((dir) => existsSync(join(dir, 'package.json')))
      .map((dir) => ({ dir, manifest: JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) })),
  );
}

/** The catalog's version of a third-party package (pnpm-workspace.yaml). */
export function catalogVersion(name) {
  const text = readFileSync(join(root, 'pnpm-workspace.yaml'), 'utf8');
  const quoted = name.startsWith('@') ? `"${name}"` : name;
  const line = text.split('\n').find((l) => l.trimStart().startsWith(`${quoted}:`));
  if (line === undefined) throw new Error(`${name} is not in the catalog`);
  return line.split(':')[1].trim();
}

/**
 * Packs every workspace package into `destination` with `pnpm pack` (so the `beforePacking`
 * hook of .pnpmfile.mjs rewrites the manifests as on publish). Needs a prior build.
 * @returns {Map<string, string>} package name -> tarball path
 */
export function packAll(destination) {
  mkdirSync(destination, { recursive: true });
  const tarballs = new Map();
  for (const { dir, manifest } of workspacePackages()) {
    if (manifest.files?.includes('dist') && !existsSync(join(dir, 'dist'))) throw new Error(`${manifest.name} is not built: run pnpm run build first`);
    const out = run('pnpm', ['pack', '--pack-destination', destination, '--json'], { cwd: dir });
    const parsed = JSON.parse(out.slice(out.indexOf('{')));
    tarballs.set(manifest.name, resolve(destination, parsed.filename));
  }
  return tarballs;
}

/**
 * A clean project in `dir` whose dependencies are `dependencies` (name -> spec), with every
 * workspace package resolved from its tarball, installed with pnpm from the store (falling back
 * to the registry for what the store lacks). `env` is added to the install's environment (a
 * `PATH` with another Node first installs under that Node).
 */
export function installProject(dir, tarballs, dependencies, env = {}) {
  mkdirSync(dir, { recursive: true });
  const deps = Object.fromEntries(Object.entries(dependencies).map(([name, spec]) => [name, spec ?? `file:${tarballs.get(name)}`]));
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ name: 'a3s-pack-consumer', private: true, dependencies: deps }, null, 2)}\n`);
  const overrides = [...tarballs].map(([name, file]) => `  "${name}": "file:${file}"`).join('\n');
  writeFileSync(join(dir, 'pnpm-workspace.yaml'), `overrides:\n${overrides}\nallowBuilds:\n  esbuild: true\n`);
  run('pnpm', ['install', '--prefer-offline', '--config.confirmModulesPurge=false'], { cwd: dir, env: cleanEnv({ CI: 'true', ...env }) });
}

/**
 * The tarballs `name` needs at run time: itself and its `@a3s-lab/*` / `a3s-code` dependencies,
 * transitively (not optional peers), read from the packed manifests.
 * @param {Map<string, string>} tarballs package name -> tarball path
 * @returns {string[]} tarball paths
 */
export function tarballClosure(tarballs, name) {
  const seen = new Set();
  const visit = (pkg) => {
    if (seen.has(pkg)) return;
    const file = tarballs.get(pkg);
    if (file === undefined) throw new Error(`no tarball for ${pkg}`);
    seen.add(pkg);
    const manifest = JSON.parse(run('tar', ['-xzOf', file, 'package/package.json']));
    for (const dep of Object.keys(manifest.dependencies ?? {})) if (tarballs.has(dep)) visit(dep);
  };
  visit(name);
  return [...seen].map((pkg) => tarballs.get(pkg));
}
