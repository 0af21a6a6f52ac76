#!/usr/bin/env node
// The packed-install check (issues 18, 28): packs every workspace package as `pnpm publish` would,
// lints each tarball (publint --strict, arethetypeswrong), then, on the running Node (24) and on
// Node 22.12 (the `engines` floor, from the registry package), installs @a3s-lab/code from the
// tarballs into a clean project and uses it the way a new user would: ESM import, CommonJS
// require, tsc under NodeNext / Bundler / Node10 (strict, exactOptionalPropertyTypes), each with
// skipLibCheck true and false, over fixtures/types/*.ts, every fixtures/run/* program (a custom
// backend running the contract suite under node:test, a session per provider without either SDK
// installed), and the CLI installed from its tarball alone (fixtures/cli: --version, run against
// the scripted model server, demo, serve --demo). On the running Node also the CLI's
// process-level tests with A3S_CODE_BIN pointing at the packed binary, `npx a3s-code` from a
// folder of tarballs and `npm i -g` of them.
// Needs `pnpm run build` first. Prints one line per step; exits non-zero on the first failure.
//
// Usage: node tooling/pack-check/run.mjs [--keep]   (--keep leaves the temp directory)
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { checkPackage, createPackageFromTarballData } from '@arethetypeswrong/core';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { NODE_FLOOR, installRegistryNode } from '../scripts/node-runtime.mjs';
import { catalogVersion, cleanEnv, installProject, packAll, root, run, tarballClosure } from './packed-install.mjs';

// Under `pnpm exec` (the test suite) NODE_PATH names the workspace's hoisted node_modules, where
// every workspace package is reachable: `require` would find the optional packages there and the
// checks below would not be those of a clean project. Run again without it.
if (process.env.NODE_PATH !== undefined) {
  const again = spawnSync(process.execPath, process.argv.slice(1), { stdio: 'inherit', env: cleanEnv() });
  process.exit(again.status ?? 1);
}

const keep = process.argv.includes('--keep');
const fixtures = join(root, 'tooling', 'pack-check', 'fixtures');
const work = mkdtempSync(join(tmpdir(), 'a3s-pack-check-'));
const started = Date.now();
const step = (text) => console.log(`[pack-check ${((Date.now() - started) / 1000).toFixed(1)}s] ${text}`);

// Types that the consumer's tsc reads under Node10 resolution; arethetypeswrong bundles
// TypeScript 5.6, which predates require(esm) (TS 5.8): its "CJS resolves to ESM" finding is the
// design (docs/decisions/packaging.md), checked for real by the tsc runs below.
const ATTW_IGNORED = ['CJSResolvesToESM'];

/** The optional packages must be absent, or the checks would not show that @a3s-lab/code stands without them. */
function checkOptionalPackagesAbsent(app) {
  // The optional packages are not there (pnpm installs no optional peer), so the type runs prove
  // that @a3s-lab/code's declarations stand without them; nor are the provider SDKs, so the
  // sessions of fixtures/run go through the bundled copies.
  const fromSdk = createRequire(realpathSync(join(app, 'node_modules', '@a3s-lab', 'code', 'package.json')));
  for (const optional of ['@a3s-lab/code-mcp', '@a3s-lab/code-s3', '@aws-sdk/client-s3', '@a3s-lab/code-postgres', 'pg', '@electric-sql/pglite', '@anthropic-ai/sdk', 'openai']) {
    let found = true;
    try {
      fromSdk.resolve(`${optional}/package.json`);
    } catch (error) {
      found = error?.code !== 'MODULE_NOT_FOUND';
    }
    if (found) throw new Error(`${optional} is installed in the packed project: the checks would not show that @a3s-lab/code stands without it`);
  }
}

/**
 * npm, as a user without pnpm would: `npx` from a folder that holds only the CLI's tarballs, and
 * `npm i -g` of them into a temporary prefix, each giving a working `a3s-code`. Before the
 * packages are on the registry the CLI's sibling tarballs are passed with it; once published,
 * `npx a3s-code` / `npm i -g a3s-code` alone do the same.
 */
function checkNpmInstalls(tarballs, cliVersion, app) {
  const folder = join(work, 'npx-only-tarballs');
  mkdirSync(folder, { recursive: true });
  const files = tarballClosure(tarballs, 'a3s-code').map((file) => {
    cpSync(file, join(folder, basename(file)));
    return basename(file);
  });
  const npmEnv = cleanEnv({ npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' });
  // npm retries an unreachable registry for minutes: a bound makes that a clear failure.
  const npx = run('npx', ['--yes', ...files.map((file) => `--package=./${file}`), 'a3s-code', '--version'], { cwd: folder, env: npmEnv, timeout: 180_000 }).trim();
  if (npx !== cliVersion) throw new Error(`npx a3s-code --version printed ${npx}`);
  step(`npx a3s-code --version in a folder of ${files.length} tarballs: ${npx}`);
  // The same npx invocation (now cached by npx) as the binary of the CLI smoke: run, demo and
  // serve --demo through npx, as a user who never installs it.
  const wrapper = join(work, 'a3s-code-via-npx');
  writeFileSync(wrapper, `#!/bin/sh\ncd ${JSON.stringify(folder)} && exec npx --yes ${files.map((file) => `--package=./${file}`).join(' ')} a3s-code "$@"\n`, { mode: 0o755 });
  // The first npx call fetched what it needs: the smoke's calls take it from npm's cache.
  const viaNpx = run(process.execPath, [join('cli', 'cli-smoke.mjs'), wrapper, cliVersion], { cwd: app, env: { ...npmEnv, npm_config_prefer_offline: 'true' }, timeout: 300_000 });
  step(`npx: ${viaNpx.trim()}`);
  const prefix = join(work, 'npm-global');
  run('npm', ['install', '--global', '--prefix', prefix, ...files.map((file) => `./${file}`)], { cwd: folder, env: npmEnv, timeout: 180_000 });
  const global = run(join(prefix, 'bin', 'a3s-code'), ['--version'], { cwd: folder, env: npmEnv }).trim();
  if (global !== cliVersion) throw new Error(`a3s-code --version after npm i -g printed ${global}`);
  step(`npm i -g (prefix ${prefix}): a3s-code --version ${global}`);
}

/**
 * `@a3s-lab/code-testing` installed alone brings no S3, MCP or AWS code (its MCP SDK and s3rver
 * are optional peers), and its root import starts a scripted model server.
 */
function checkTestingAlone(tarballs, env) {
  const project = join(work, 'testing-alone');
  installProject(project, tarballs, { '@a3s-lab/code-testing': undefined }, env);
  const installed = readdirSync(join(project, 'node_modules', '.pnpm'));
  const heavy = installed.filter((entry) => /^(s3rver|@modelcontextprotocol\+sdk|@aws-sdk\+|zod)@/.test(entry));
  if (heavy.length > 0) throw new Error(`@a3s-lab/code-testing alone installed ${heavy.join(', ')}`);
  cpSync(join(fixtures, 'testing'), join(project, 'testing'), { recursive: true });
  const ran = run(process.execPath, [join('testing', 'testing-alone.mjs')], { cwd: project, env: cleanEnv(env) });
  step(`@a3s-lab/code-testing alone: ${installed.filter((entry) => entry.includes('@')).length} packages, no s3rver / MCP SDK / AWS SDK; ${ran.trim()}`);
}

try {
  const tarballs = packAll(join(work, 'tarballs'));
  step(`packed ${tarballs.size} packages`);

  const problems = [];
  for (const [name, file] of tarballs) {
    const manifest = JSON.parse(run('tar', ['-xzOf', file, 'package/package.json']));
    const listing = run('tar', ['-tzf', file]).split('\n');
    if (!listing.includes('package/LICENSE')) problems.push(`${name}: no LICENSE in the tarball`);
    if (JSON.stringify(manifest.exports ?? {}).includes('@a3s-lab/source')) problems.push(`${name}: the published exports keep the @a3s-lab/source condition`);
    for (const [dep, spec] of Object.entries({ ...manifest.dependencies, ...manifest.peerDependencies })) {
      if (!dep.startsWith('@a3s-lab/') && dep !== 'a3s-code' && !spec.startsWith('^')) problems.push(`${name}: ${dep}@${spec} is not a caret range`);
    }
    if (manifest.private === true) continue;
    for (const field of ['repository', 'homepage', 'bugs', 'keywords', 'license']) if (manifest[field] === undefined) problems.push(`${name}: no ${field}`);
    const tarball = readFileSync(file);
    const lint = await publint({ pack: { tarball: tarball.buffer.slice(tarball.byteOffset, tarball.byteOffset + tarball.byteLength) }, strict: true });
    for (const message of lint.messages) problems.push(`${name}: publint ${message.type}: ${formatMessage(message, manifest) ?? message.code}`);
    const types = await checkPackage(createPackageFromTarballData(new Uint8Array(tarball)));
    if (!types.types) problems.push(`${name}: arethetypeswrong: no types`);
    else for (const problem of types.problems) if (!ATTW_IGNORED.includes(problem.kind)) problems.push(`${name}: arethetypeswrong ${JSON.stringify(problem)}`);
  }
  if (problems.length > 0) throw new Error(`tarball problems:\n  ${problems.join('\n  ')}`);
  step('tarballs: LICENSE, metadata, caret ranges, no source condition, publint --strict, arethetypeswrong');

  // Every check below runs twice: on the Node running this script (the toolchain, Node 24) and on
  // Node 22.12, the floor of `engines`, from the registry package (installed once into the cache).
  const floorBin = installRegistryNode(NODE_FLOOR);
  const nodes = [
    { label: `Node ${process.versions.node}`, node: process.execPath, env: {} },
    { label: `Node ${NODE_FLOOR} (floor)`, node: join(floorBin, 'node'), env: { PATH: `${floorBin}:${process.env.PATH ?? ''}` } },
  ];
  const cliVersion = JSON.parse(readFileSync(join(root, 'apps', 'cli', 'package.json'), 'utf8')).version;
  for (const [index, target] of nodes.entries()) {
    const env = cleanEnv(target.env);
    const reported = run(target.node, ['--version'], { env }).trim();
    step(`--- ${target.label}: ${target.node} (${reported})`);

    // What the spec's `npm install @a3s-lab/code` brings (the provider SDKs are bundled into
    // @a3s-lab/code-anthropic and -openai), plus the scripted model server and the compilers of the
    // checks.
    const app = join(work, `app-${index}`);
    installProject(app, tarballs, {
      '@a3s-lab/code': undefined,
      '@a3s-lab/code-testing': undefined,
      typescript: catalogVersion('typescript'),
      '@types/node': catalogVersion('@types/node'),
    }, target.env);
    step('installed @a3s-lab/code from the tarballs');
    checkOptionalPackagesAbsent(app);

    cpSync(join(fixtures, 'types'), join(app, 'types'), { recursive: true });
    // Each mode twice: skipLibCheck as `tsc --init` sets it, and skipLibCheck: false, which reads
    // every declaration file the fixtures reach (ours and those of the required dependencies): one
    // that imported a package this project lacks (the optional MCP, S3 or Postgres package, the AWS SDK, pg)
    // fails there with "Cannot find module".
    const modes = {
      nodenext: { module: 'nodenext', moduleResolution: 'nodenext' },
      bundler: { module: 'preserve', moduleResolution: 'bundler' },
      node10: { module: 'commonjs', moduleResolution: 'node10' },
    };
    // The compiler's answer does not depend on the Node that runs it: on the floor, one mode (the
    // strictest: NodeNext with every declaration file read) shows that tsc runs there.
    const floorModes = index === 0 ? Object.entries(modes) : [['nodenext', modes.nodenext]];
    for (const [mode, resolution] of floorModes) {
      for (const skipLibCheck of index === 0 ? [true, false] : [false]) {
        const name = `tsconfig.${mode}${skipLibCheck ? '' : '.lib-check'}.json`;
        const config = { compilerOptions: { ...resolution, target: 'es2024', lib: ['es2024'], types: ['node'], strict: true, exactOptionalPropertyTypes: true, noEmit: true, skipLibCheck }, include: ['types/**/*.ts'] };
        writeFileSync(join(app, name), JSON.stringify(config, null, 2));
        run(target.node, [join(app, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', name], { cwd: app, env });
      }
    }
    step(`tsc ${floorModes.map(([mode]) => mode).join(' / ')} (strict, exactOptionalPropertyTypes; skipLibCheck ${index === 0 ? 'true and false' : 'false'}; no MCP / S3 / Postgres package installed) over ${readdirSync(join(fixtures, 'types')).filter((f) => f.endsWith('.ts')).length} fixture(s)`);

    cpSync(join(fixtures, 'run'), join(app, 'run'), { recursive: true });
    for (const file of readdirSync(join(app, 'run')).sort()) {
      if (!/\.(mjs|cjs)$/.test(file)) continue;
      const args = file.endsWith('.test.mjs') ? ['--test', '--test-reporter=dot', join('run', file)] : [join('run', file)];
      run(target.node, args, { cwd: app, env });
      step(`node ${args.join(' ')}`);
    }

    // The CLI in a project of its own, installed from its tarball alone (its dependencies are what
    // it needs), then used as a user would: --version, run, demo, serve --demo.
    const cli = join(work, `cli-${index}`);
    installProject(cli, tarballs, { 'a3s-code': undefined }, target.env);
    const bin = resolve(cli, 'node_modules', '.bin', 'a3s-code');
    cpSync(join(fixtures, 'cli'), join(app, 'cli'), { recursive: true });
    const smoke = run(target.node, [join('cli', 'cli-smoke.mjs'), bin, cliVersion], { cwd: app, env });
    step(`packed CLI: ${smoke.trim()}`);

    if (index === 0) {
      // The CLI's process-level tests (apps/cli/test/cli-harness.ts reads A3S_CODE_BIN) against the
      // packed and installed binary instead of apps/cli/dist.
      const cliTests = ['apps/cli/test/binary-conventions.test.ts', 'apps/cli/test/pty.test.ts'];
      run('pnpm', ['exec', 'vitest', 'run', ...cliTests, '--maxWorkers=1', '--reporter=dot'], { cwd: root, env: cleanEnv({ A3S_CODE_BIN: bin }) });
      step(`A3S_CODE_BIN=${bin} vitest run ${cliTests.join(' ')}`);
      checkNpmInstalls(tarballs, cliVersion, app);
      checkTestingAlone(tarballs, target.env);
    }
  }
  console.log(`pack-check ok in ${((Date.now() - started) / 1000).toFixed(1)}s`);
} finally {
  if (keep) console.log(`kept ${work}`);
  else rmSync(work, { recursive: true, force: true });
}
