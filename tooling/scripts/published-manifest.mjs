// The one place that turns a workspace manifest into the manifest that ships (called by the
// `beforePacking` hook of .pnpmfile.mjs, and by tests that check the result).

/** The development-only export condition: workspace packages resolve to TypeScript sources. */
export const SOURCE_CONDITION = '@a3s-lab/source';

const EXACT_VERSION = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/;

/** Drops the development-only source condition from an export map (any depth). */
function stripSourceCondition(value) {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const out = {};
  for (const [key, entry] of Object.entries(value)) {
    if (key === SOURCE_CONDITION) continue;
    out[key] = stripSourceCondition(entry);
  }
  return out;
}

/** Third-party exact pins (the catalog's) become caret ranges; sibling `@a3s-lab/*` versions stay exact. */
function caretRanges(deps) {
  if (deps === undefined) return undefined;
  const out = {};
  for (const [name, spec] of Object.entries(deps)) {
    out[name] = !name.startsWith('@a3s-lab/') && EXACT_VERSION.test(spec) ? `^${spec}` : spec;
  }
  return out;
}

/**
 * The published form of a manifest (after pnpm replaced `workspace:` and `catalog:`): no source
 * condition, caret ranges for third-party dependencies, no dev-only fields.
 * @param {Record<string, any>} pkg
 * @returns {Record<string, any>}
 */
export function toPublishedManifest(pkg) {
  const out = { ...pkg };
  if (out.exports !== undefined) out.exports = stripSourceCondition(out.exports);
  for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies']) {
    if (out[field] !== undefined) out[field] = caretRanges(out[field]);
  }
  delete out.devDependencies;
  delete out.scripts;
  return out;
}
