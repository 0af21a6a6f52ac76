#!/usr/bin/env node
// Bundles the published JavaScript of the package in the current directory (issue 18: import
// time). `tsc --emitDeclarationOnly` writes the typings; this writes one ESM file per entry of the
// package's export map (the entry's `@a3s-lab/source` file → its `default` file) plus shared
// chunks beside them in `dist/`, with the package's dependencies left as imports. Loading 20 files
// instead of 280 is most of what `import('@a3s-lab/code')` costs.
//
// Usage (a package's build script): tsc -p tsconfig.build.json --emitDeclarationOnly && node ../../tooling/build/bundle-package.mjs [extra.ts ...] [--vendor=<package>[=<entry>] ...]
// Extra arguments are more entries (`src/program-worker.ts` → `dist/program-worker.js`), for
// files loaded by URL rather than by import. `--vendor=<package>` bundles a third-party package
// into one CommonJS file of ours (see vendorPackage below); with `=<entry>`, a module of ours
// that imports the parts of it we use goes in instead of its main entry.
import { build, transform } from 'esbuild';
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';

const dir = process.cwd();
const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
const args = process.argv.slice(2);
const vendored = args.filter((arg) => arg.startsWith('--vendor=')).map((arg) => vendorSpec(arg.slice('--vendor='.length)));
const extraEntries = args.filter((arg) => !arg.startsWith('--'));

/** `{ in: src/x.ts, out: x }` for every export-map entry that has both a source and a built file. */
function exportEntries(exportsField) {
  const entries = new Map();
  const visit = (value) => {
    if (value === null || typeof value !== 'object') return;
    const source = value['@a3s-lab/source'];
    const built = value.default ?? value.import;
    if (typeof source === 'string' && typeof built === 'string' && built.endsWith('.js')) {
      entries.set(built, { in: source, out: built.replace(/^\.\/dist\//, '').replace(/\.js$/, '') });
      return;
    }
    for (const nested of Object.values(value)) visit(nested);
  };
  visit(exportsField);
  return [...entries.values()];
}

const entryPoints = [
  ...exportEntries(manifest.exports),
  ...extraEntries.map((source) => ({ in: source, out: relative('src', source).replace(/\.ts$/, '') })),
];
if (entryPoints.length === 0) throw new Error(`${manifest.name}: no export-map entry has a "@a3s-lab/source" and a "default" file`);

// tsc's own .js output (or an earlier bundle) must not linger beside the bundle.
const removeScripts = (path) => {
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    const child = join(path, entry.name);
    if (entry.isDirectory()) removeScripts(child);
    else if (/\.js(\.map)?$/.test(entry.name)) rmSync(child);
  }
};
removeScripts(join(dir, 'dist'));
rmSync(join(dir, 'dist', 'vendor'), { recursive: true, force: true });

/**
 * A vendored package: the sources name it through the global `define` (e.g.
 * `A3S_VENDORED_ANTHROPIC_AI_SDK`), which the bundle replaces with the path of its file relative to
 * the chunk (`./vendor/anthropic-ai-sdk.cjs`); under the sources (tests, `@a3s-lab/source`) the
 * name is undeclared and the package itself is required.
 */
function vendorSpec(spec) {
  const [name = '', entry] = spec.split('=');
  if (!/^(@[a-z0-9-]+\/)?[a-z0-9-]+$/.test(name)) throw new Error(`--vendor=${spec}: not a package name`);
  if (entry !== undefined && !existsSync(join(dir, entry))) throw new Error(`--vendor=${spec}: no entry ${entry}`);
  const file = `${name.replace(/^@/, '').replace('/', '-')}.cjs`;
  return { name, file, entry, define: `A3S_VENDORED_${name.replace(/^@/, '').replace(/[^a-z0-9]+/gi, '_').toUpperCase()}` };
}

/**
 * Precompiled validators (`*.generated.ts`: ajv's standalone code, hundreds of KB that V8 must
 * parse at import) go in minified: nobody reads them, and parsing the minified text costs about
 * half as much. Hand-written code stays readable.
 */
const minifiedGeneratedModules = {
  name: 'minified-generated-modules',
  setup(plugin) {
    plugin.onLoad({ filter: /\.generated\.ts$/ }, async ({ path }) => {
      const minified = await transform(readFileSync(path, 'utf8'), { loader: 'ts', format: 'esm', minify: true, sourcefile: path });
      return { contents: minified.code, loader: 'js' };
    });
  },
};

const result = await build({
  absWorkingDir: dir,
  entryPoints,
  outdir: 'dist',
  // Chunks sit beside the entries so `new URL('./x.js', import.meta.url)` means the same in both.
  chunkNames: 'shared-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node22.12',
  // Dependencies (workspace siblings included) stay imports: one copy of each class per process.
  packages: 'external',
  // No `keepNames`: its ~1,000 `__name(...)` wrappers cost ~10 ms of every import (they also made
  // V8 compile each wrapped arrow function eagerly). Names survive without it: a class or function
  // keeps the name of its declaration or variable, and our errors set `name` themselves. Classes
  // are checked after the build, below: one that refers to itself (esbuild names it `_X`) gets its
  // name back; one renamed for a clash with another module's top-level name fails the build.
  sourcemap: 'linked',
  sourcesContent: false,
  tsconfig: 'tsconfig.build.json',
  logLevel: 'warning',
  plugins: [minifiedGeneratedModules],
  metafile: true,
  define: Object.fromEntries(vendored.map((vendor) => [vendor.define, JSON.stringify(`./vendor/${vendor.file}`)])),
});
for (const vendor of vendored) await vendorPackage(vendor, result.metafile);

/**
 * Class names as declared. esbuild turns `class X { ... new X() ... }` into
 * `var X = class _X { ... new _X() ... }`, whose `name` is `_X`: each such class gets its declared
 * name back at the end of its chunk (before any importer runs). A class renamed for a collision
 * (`var X2 = class`) fails the build: rename one of the two in the sources.
 */
for (const output of Object.keys(result.metafile.outputs).filter((path) => path.endsWith('.js'))) {
  const file = join(dir, output);
  const code = readFileSync(file, 'utf8');
  const selfNamed = [...code.matchAll(/^var ([A-Za-z_$][\w$]*) = class _\1\b/gm)].map((match) => match[1]);
  const collided = [...code.matchAll(/^var ([A-Za-z_$][\w$]*\d) = class\b/gm)]
    .map((match) => match[1])
    .filter((name) => !new RegExp(`\\bclass ${name.replace(/\$/g, '\\$')}\\b`).test(readSources(result.metafile.outputs[output])));
  if (collided.length > 0) throw new Error(`${manifest.name}: ${output}: class ${collided.join(', ')} renamed by the bundler (a top-level name clash): rename one of the clashing declarations`);
  if (selfNamed.length === 0) continue;
  const names = selfNamed.map((name) => `Object.defineProperty(${name}, "name", { value: ${JSON.stringify(name)}, configurable: true });`).join('\n');
  const mapComment = /\n\/\/# sourceMappingURL=[^\n]*\n?$/.exec(code);
  const at = mapComment === null ? code.length : mapComment.index;
  writeFileSync(file, `${code.slice(0, at)}\n${names}${code.slice(at)}`);
}

/** The concatenated sources of an output's inputs (to tell a declared `Foo2` from a renamed `Foo`). */
function readSources(output) {
  return Object.keys(output.inputs)
    .map((input) => readFileSync(join(dir, input), 'utf8'))
    .join('\n');
}

/**
 * Bundles a third-party package (its CommonJS build, with everything it requires) into
 * `dist/vendor/<name>.cjs`, plus the licence texts of what went in beside it. Requiring one file
 * instead of a package's hundreds is most of its load time: @anthropic-ai/sdk 1.14 went from ~210
 * to ~100 ms (327 files through Node's CommonJS loader), openai 6 from ~110 to ~40 ms. The
 * entries that name it must be in `dist/` itself (the path is relative to the chunk).
 */
async function vendorPackage(vendor, metafile) {
  const users = Object.entries(metafile.outputs).filter(([output]) => output.endsWith('.js') && readFileSync(join(dir, output), 'utf8').includes(`"./vendor/${vendor.file}"`));
  if (users.length === 0) throw new Error(`${manifest.name}: --vendor=${vendor.name}, but no module names ${vendor.define}`);
  const nested = users.map(([output]) => output).filter((output) => dirname(output) !== 'dist');
  if (nested.length > 0) throw new Error(`${manifest.name}: ${nested.join(', ')} name ${vendor.define} from below dist/: the vendored file's path would be wrong`);
  const outfile = join(dir, 'dist', 'vendor', vendor.file);
  const entry = createRequire(join(dir, 'package.json')).resolve(vendor.name);
  const vendorBuild = await build({
    // Our entry's ESM imports resolve to the package's ESM build: with its `sideEffects: false`,
    // what the entry does not import stays out.
    entryPoints: [vendor.entry === undefined ? entry : join(dir, vendor.entry)],
    outfile,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node22.12',
    // Readable: a stack trace through the client names its functions and lines.
    minify: false,
    legalComments: 'none',
    banner: { js: `// ${vendor.name} ${packageVersion(vendor.name, entry)} and its dependencies, bundled by @a3s-lab (tooling/build/bundle-package.mjs). Licences: ./${vendor.file}.LICENSE.txt` },
    logLevel: 'warning',
    metafile: true,
  });
  writeFileSync(`${outfile}.LICENSE.txt`, licenceTexts(Object.keys(vendorBuild.metafile.inputs)));
}

/** The version of package `name`, from the nearest manifest of that name above its resolved `entry`. */
function packageVersion(name, entry) {
  for (let at = dirname(entry); at !== dirname(at); at = dirname(at)) {
    const file = join(at, 'package.json');
    const pkg = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined;
    if (pkg?.name === name) return pkg.version;
  }
  throw new Error(`${manifest.name}: no package.json of ${name} above ${entry}`);
}

/** `name version (licence)` and the licence and notice files of each package whose files are among `inputs`. */
function licenceTexts(inputs) {
  const roots = new Set();
  for (const input of inputs) {
    const match = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input);
    if (match !== null && match[1] !== undefined) roots.add(match[1]);
  }
  return [...roots]
    .sort()
    .map((root) => {
      const pkg = JSON.parse(readFileSync(join(dir, root, 'package.json'), 'utf8'));
      // Every licence and notice file (@anthropic-ai/sdk has LICENSE and LICENSE-MIT).
      const files = readdirSync(join(dir, root)).filter((file) => /^(licen[cs]e|notice)([.-][\w.]+)?$/i.test(file)).sort();
      if (typeof pkg.license !== 'string') throw new Error(`${manifest.name}: vendored ${pkg.name} declares no licence`);
      const text =
        files.length === 0
          ? `(the package ships no licence file; its package.json says ${pkg.license}, by ${JSON.stringify(pkg.author ?? 'its authors')})`
          : files.map((file) => `${file}:\n\n${readFileSync(join(dir, root, file), 'utf8').trim()}`).join('\n\n');
      return `${pkg.name} ${pkg.version} (${pkg.license})\n\n${text}\n`;
    })
    .join(`\n${'-'.repeat(72)}\n\n`);
}
