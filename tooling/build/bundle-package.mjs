#!/usr/bin/env node
// Bundles the published JavaScript of the package in the current directory (issue 18: import
// time). `tsc --emitDeclarationOnly` writes the typings; this writes one ESM file per entry of the
// package's export map (the entry's `@a3s-lab/source` file → its `default` file) plus shared
// chunks beside them in `dist/`, with the package's dependencies left as imports. Loading 20 files
// instead of 280 is most of what `import('@a3s-lab/code')` costs.
//
// Usage (a package's build script): tsc -p tsconfig.build.json --emitDeclarationOnly && node ../../tooling/build/bundle-package.mjs [extra.ts ...]
// Extra arguments are more entries (`src/program-worker.ts` → `dist/program-worker.js`), for
// files loaded by URL rather than by import.
import { build, transform } from 'esbuild';
import { readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const dir = process.cwd();
const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));

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
  ...process.argv.slice(2).map((source) => ({ in: source, out: relative('src', source).replace(/\.ts$/, '') })),
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
  target: 'node20.19',
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
});

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
