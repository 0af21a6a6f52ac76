import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

// The packed-install check of issue 18 (tooling/pack-check/run.mjs): pack every package, lint the
// tarballs (publint --strict, arethetypeswrong), install @a3s-lab/code from them into a clean
// project and import, require, type-check and run it there. Needs `pnpm run build` first (CI
// builds before the tests).
describe('packed install', () => {
  it('packs, lints, installs and runs @a3s-lab/code from its tarballs', () => {
    const result = spawnSync(process.execPath, [join(root, 'tooling', 'pack-check', 'run.mjs')], { cwd: root, encoding: 'utf8', timeout: 280_000 });
    expect(`${result.stdout}\n${result.stderr}`).toContain('pack-check ok');
    expect(result.status).toBe(0);
  }, 300_000);
});
