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
import { readFileSync, readdirSync, rmSync } from 'node:fs';
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

await build({
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
  // Error classes, tools and hooks are named in messages: scope hoisting must not rename them.
  keepNames: true,
  sourcemap: 'linked',
  sourcesContent: false,
  tsconfig: 'tsconfig.build.json',
  logLevel: 'warning',
  plugins: [minifiedGeneratedModules],
});
