import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

// The packed-install check of issues 18 and 28 (tooling/pack-check/run.mjs): pack every package,
// lint the tarballs (publint --strict, arethetypeswrong), install @a3s-lab/code from them into a
// clean project and import, require, type-check and run it there, and the CLI from its tarball
// alone, on this Node and on Node 22.12 (the floor); npx and npm i -g of the CLI. Needs the build
// (`npm test` builds first).
describe('packed install', () => {
  it('packs, lints, installs and runs @a3s-lab/code and the CLI from their tarballs on this Node and on the floor', () => {
    const result = spawnSync(process.execPath, [join(root, 'tooling', 'pack-check', 'run.mjs')], { cwd: root, encoding: 'utf8', timeout: 400_000 });
    const output = `${result.stdout}\n${result.stderr}`;
    expect(output).toContain('pack-check ok');
    expect(output).toContain(`cli smoke ok on Node ${process.versions.node}`);
    expect(output).toContain('cli smoke ok on Node 22.12.0');
    expect(output).toMatch(/npx a3s-code --version in a folder of \d+ tarballs/);
    expect(output).toMatch(/npx: cli smoke ok on Node [\d.]+: --version, run, demo, serve --demo/);
    expect(output).toMatch(/npm i -g .*a3s-code --version/);
    expect(output).toContain('code-testing alone ok');
    expect(result.status).toBe(0);
  }, 420_000);
});
