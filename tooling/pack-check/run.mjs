#!/usr/bin/env node
// The packed-install check (issue 18): packs every workspace package as `pnpm publish` would,
// lints each tarball (publint --strict, arethetypeswrong), installs @a3s-lab/code from the
// tarballs into a clean project and uses it the way a new user would: ESM import, CommonJS
// require, tsc under NodeNext / Bundler / Node10 (strict, exactOptionalPropertyTypes), each with
// skipLibCheck true and false, over fixtures/types/*.ts, every fixtures/run/* program (a custom backend running the contract
// suite under node:test, a session per provider without either SDK installed), and the packed CLI (`a3s-code --help`, then
// the CLI's process-level tests with A3S_CODE_BIN pointing at it).
// Needs `pnpm run build` first. Prints one line per step; exits non-zero on the first failure.
//
// Usage: node tooling/pack-check/run.mjs [--keep]   (--keep leaves the temp directory)
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { checkPackage, createPackageFromTarballData } from '@arethetypeswrong/core';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { catalogVersion, cleanEnv, installProject, packAll, root, run } from './packed-install.mjs';

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

  // What the spec's `npm install @a3s-lab/code` brings (the provider SDKs are bundled into
  // @a3s-lab/code-anthropic and -openai), plus the scripted model server and the compilers of the
  // checks.
  const app = join(work, 'app');
  installProject(app, tarballs, {
    '@a3s-lab/code': undefined,
    '@a3s-lab/code-testing': undefined,
    typescript: catalogVersion('typescript'),
    '@types/node': catalogVersion('@types/node'),
  });
  step('installed @a3s-lab/code from the tarballs');

  // The optional packages are not there (pnpm installs no optional peer), so the type runs below
  // prove that @a3s-lab/code's declarations stand without them; nor are the provider SDKs, so the
  // sessions of fixtures/run go through the bundled copies.
  const fromSdk = createRequire(realpathSync(join(app, 'node_modules', '@a3s-lab', 'code', 'package.json')));
  for (const optional of ['@a3s-lab/code-mcp', '@a3s-lab/code-s3', '@aws-sdk/client-s3', '@anthropic-ai/sdk', 'openai']) {
    let found = true;
    try {
      fromSdk.resolve(`${optional}/package.json`);
    } catch (error) {
      found = error?.code !== 'MODULE_NOT_FOUND';
    }
    if (found) throw new Error(`${optional} is installed in the packed project: the checks would not show that @a3s-lab/code stands without it`);
  }

  cpSync(join(fixtures, 'types'), join(app, 'types'), { recursive: true });
  // Each mode twice: skipLibCheck as `tsc --init` sets it, and skipLibCheck: false, which reads
  // every declaration file the fixtures reach (ours and those of the required dependencies): one
  // that imported a package this project lacks (the optional MCP or S3 package, the AWS SDK)
  // fails there with "Cannot find module".
  const modes = {
    nodenext: { module: 'nodenext', moduleResolution: 'nodenext' },
    bundler: { module: 'preserve', moduleResolution: 'bundler' },
    node10: { module: 'commonjs', moduleResolution: 'node10' },
  };
  for (const [mode, resolution] of Object.entries(modes)) {
    for (const skipLibCheck of [true, false]) {
      const name = `tsconfig.${mode}${skipLibCheck ? '' : '.lib-check'}.json`;
      const config = { compilerOptions: { ...resolution, target: 'es2023', lib: ['es2023'], types: ['node'], strict: true, exactOptionalPropertyTypes: true, noEmit: true, skipLibCheck }, include: ['types/**/*.ts'] };
      writeFileSync(join(app, name), JSON.stringify(config, null, 2));
      run(process.execPath, [join(app, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', name], { cwd: app });
    }
  }
  step(`tsc ${Object.keys(modes).join(' / ')} (strict, exactOptionalPropertyTypes; skipLibCheck true and false; no MCP / S3 package installed) over ${readdirSync(join(fixtures, 'types')).filter((f) => f.endsWith('.ts')).length} fixture(s)`);

  cpSync(join(fixtures, 'run'), join(app, 'run'), { recursive: true });
  for (const file of readdirSync(join(app, 'run')).sort()) {
    if (!/\.(mjs|cjs)$/.test(file)) continue;
    const args = file.endsWith('.test.mjs') ? ['--test', '--test-reporter=dot', join('run', file)] : [join('run', file)];
    run(process.execPath, args, { cwd: app });
    step(`node ${args.join(' ')}`);
  }

  // The CLI in a project of its own.
  const cli = join(work, 'cli');
  installProject(cli, tarballs, { 'a3s-code': undefined });
  const bin = resolve(cli, 'node_modules', '.bin', 'a3s-code');
  const help = run(bin, ['--help'], { cwd: cli });
  if (!help.includes('a3s-code')) throw new Error(`a3s-code --help printed:\n${help}`);
  step(`packed CLI: ${bin} --help`);
  // The CLI's process-level tests (apps/cli/test/cli-harness.ts reads A3S_CODE_BIN) against the
  // packed and installed binary instead of apps/cli/dist.
  const cliTests = ['apps/cli/test/binary-conventions.test.ts', 'apps/cli/test/pty.test.ts'];
  run('pnpm', ['exec', 'vitest', 'run', ...cliTests, '--maxWorkers=1', '--reporter=dot'], { cwd: root, env: cleanEnv({ A3S_CODE_BIN: bin }) });
  step(`A3S_CODE_BIN=${bin} vitest run ${cliTests.join(' ')}`);
  console.log(`pack-check ok in ${((Date.now() - started) / 1000).toFixed(1)}s`);
} finally {
  if (keep) console.log(`kept ${work}`);
  else rmSync(work, { recursive: true, force: true });
}
