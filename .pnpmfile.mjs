// Published-manifest rewrites (see docs/decisions/packaging.md). Runs on `pnpm pack` / `pnpm publish`
// only; installs are unaffected.
import { toPublishedManifest } from './tooling/scripts/published-manifest.mjs';

export const hooks = {
  beforePacking: toPublishedManifest,
};
