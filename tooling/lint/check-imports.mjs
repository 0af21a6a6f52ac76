#!/usr/bin/env node
// Import-graph lint: fails on import cycles inside a package, on imports of workspace packages
// that the package map does not allow (up or sideways), on relative imports that leave the
// package, on `node:*` imports in runtime-neutral core code, on static value imports of
// packages that must load lazily (`lazyOnly`: `import type` and `import()` only), and on any
// static or type reference to packages a package reaches only through `import()` (`dynamicOnly`:
// optional packages its published declarations must not name).
import { readFileSync, readdirSync, statSync, existsSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..', '..');
const map = JSON.parse(readFileSync(join(here, 'package-map.json'), 'utf8'));
const problems = [];

function walk(dir, out = []) {
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist') continue;
    const full = join(dir, name);
    const st = statSync(full);
    if (st.isDirectory()) walk(full, out);
    else if (/\.(ts|mts|tsx)$/.test(name) && !name.endsWith('.d.ts')) out.push(full);
  }
  return out;
}

const isTestFile = (file) => /\.test\.tsx?$/.test(file) || file.includes(`${sep}test${sep}`) || file.includes(`${sep}bench${sep}`);

function packageNameOf(specifier) {
  if (specifier.startsWith('@')) return specifier.split('/').slice(0, 2).join('/');
  return specifier.split('/')[0];
}

/** Static imports/re-exports of the specifiers `matches` accepts that bring values in (not `import type` / `export type`). */
function staticValueImports(file, text, matches) {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const found = [];
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) && !ts.isExportDeclaration(statement)) continue;
    const specifier = statement.moduleSpecifier;
    if (specifier === undefined || !ts.isStringLiteral(specifier) || !matches(specifier.text)) continue;
    const typeOnly = ts.isImportDeclaration(statement)
      ? statement.importClause?.isTypeOnly === true ||
        (statement.importClause !== undefined && statement.importClause.name === undefined && statement.importClause.namedBindings !== undefined &&
          ts.isNamedImports(statement.importClause.namedBindings) && statement.importClause.namedBindings.elements.every((e) => e.isTypeOnly))
      : statement.isTypeOnly || (statement.exportClause !== undefined && ts.isNamedExports(statement.exportClause) && statement.exportClause.elements.every((e) => e.isTypeOnly));
    if (!typeOnly) found.push(specifier.text);
  }
  return found;
}

/** Import/export declarations (type-only too) and `import('x')` types naming one of `names`; a dynamic `import()` call is not one. */
function staticReferences(file, text, names) {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const found = [];
  const named = (node) => node !== undefined && ts.isStringLiteral(node) && names.includes(packageNameOf(node.text));
  const visit = (node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && named(node.moduleSpecifier)) found.push(node.moduleSpecifier.text);
    if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && named(node.argument.literal)) found.push(node.argument.literal.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function resolveRelative(fromFile, specifier) {
  const base = resolve(dirname(fromFile), specifier);
  const candidates = [base, base.replace(/\.js$/, '.ts'), base.replace(/\.mjs$/, '.mts'), `${base}.ts`, join(base, 'index.ts')];
  return candidates.find((c) => existsSync(c) && statSync(c).isFile());
}

const workspaceDirs = ['packages', 'apps'].flatMap((group) => {
  const dir = join(root, group);
  return existsSync(dir) ? readdirSync(dir).map((d) => join(dir, d)).filter((d) => existsSync(join(d, 'package.json'))) : [];
});
const workspaceNames = new Set(Object.keys(map.packages));

for (const pkgDir of workspaceDirs) {
  const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
  const allowed = map.packages[pkg.name];
  if (!allowed) {
    problems.push(`${relative(root, pkgDir)}: package ${pkg.name} is not in tooling/lint/package-map.json`);
    continue;
  }
  // Core and the session runtime stay runtime-neutral (no node:*): listed in nodeFreeExceptions.
  const nodeFree = Object.hasOwn(map.nodeFreeExceptions, pkg.name);
  const lazyOnly = map.lazyOnly?.[pkg.name] ?? [];
  const lazyEntries = (map.lazyEntries?.[pkg.name] ?? []).map((entry) => join(pkgDir, entry));
  const dynamicOnly = map.dynamicOnly?.[pkg.name] ?? [];
  const nodeExceptions = map.nodeFreeExceptions[pkg.name] ?? [];
  const files = ['src', 'test', 'bench'].flatMap((d) => walk(join(pkgDir, d)));
  const graph = new Map();
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const info = ts.preProcessFile(text, true, true);
    const edges = [];
    const rel = relative(pkgDir, file);
    const testFile = isTestFile(file);
    if (lazyOnly.length > 0 && !testFile && !lazyEntries.includes(file)) {
      for (const spec of staticValueImports(file, text, (specifier) => lazyOnly.includes(packageNameOf(specifier)))) {
        problems.push(`${relative(root, file)}: '${spec}' must load lazily: use \`import type\` or a dynamic import()`);
      }
      // A lazy entry imports those packages itself: it must be loaded on first use too.
      const isLazyEntry = (specifier) => specifier.startsWith('.') && lazyEntries.includes(resolveRelative(file, specifier));
      for (const spec of staticValueImports(file, text, isLazyEntry)) {
        problems.push(`${relative(root, file)}: '${spec}' is a lazy entry (lazyEntries): use \`import type\` or a dynamic import()`);
      }
    }
    if (dynamicOnly.length > 0 && !testFile) {
      for (const spec of staticReferences(file, text, dynamicOnly)) {
        problems.push(`${relative(root, file)}: '${spec}' may be reached only with a dynamic import(): its types would reach the published declarations (declare the shape used locally or in core)`);
      }
    }
    for (const ref of info.importedFiles) {
      const spec = ref.fileName;
      if (spec.startsWith('.')) {
        const target = resolveRelative(file, spec);
        if (!target) {
          problems.push(`${relative(root, file)}: cannot resolve relative import '${spec}'`);
          continue;
        }
        if (!target.startsWith(pkgDir + sep)) {
          problems.push(`${relative(root, file)}: relative import '${spec}' leaves the package; import the package by name`);
          continue;
        }
        edges.push(target);
        continue;
      }
      if (spec.startsWith('node:')) {
        if (nodeFree && !testFile && !nodeExceptions.some((p) => rel.startsWith(p))) {
          problems.push(`${relative(root, file)}: '${spec}' in runtime-neutral core code`);
        }
        continue;
      }
      const name = packageNameOf(spec);
      if (!workspaceNames.has(name) || name === pkg.name) continue;
      const ok = allowed.includes(name) || (testFile && map.testOnly.includes(name));
      if (!ok) problems.push(`${relative(root, file)}: ${pkg.name} may not import ${name} (points up or sideways in the package map)`);
    }
    graph.set(file, edges);
  }
  // Cycle detection over relative imports (type-only imports included: a type cycle is still a layering smell).
  const state = new Map();
  const stack = [];
  const visit = (node) => {
    state.set(node, 1);
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (!graph.has(next)) continue;
      const s = state.get(next);
      if (s === 1) {
        const cycle = stack.slice(stack.indexOf(next)).concat(next).map((f) => relative(pkgDir, f));
        problems.push(`${pkg.name}: import cycle ${cycle.join(' -> ')}`);
      } else if (!s) visit(next);
    }
    stack.pop();
    state.set(node, 2);
  };
  for (const node of graph.keys()) if (!state.get(node)) visit(node);
}

if (problems.length > 0) {
  for (const p of problems) console.error(`lint: ${p}`);
  console.error(`lint: ${problems.length} problem(s)`);
  process.exit(1);
}
console.log(`lint: import graph ok (${workspaceDirs.length} packages)`);
