// The Node runtime selection behind `npm test`, `npm run demo` and `.ci/run` (node-runtime.mjs).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a zero-dependency .mjs script without declarations
import { NODE_FLOOR, compareVersions, toolchainBinDir } from './node-runtime.mjs';

const here = dirname(fileURLToPath(import.meta.url));

/** The first node on the system PATH older than the floor (a machine with Node 20), if any. */
function olderSystemNode(): string | undefined {
  for (const candidate of ['/usr/bin/node', '/usr/local/bin/node', '/bin/node']) {
    const probe = spawnSync(candidate, ['-p', 'process.versions.node'], { encoding: 'utf8' });
    if (probe.status === 0 && compareVersions(probe.stdout.trim(), NODE_FLOOR) < 0) return candidate;
  }
  return undefined;
}

describe('node runtime', () => {
  it('compares versions numerically', () => {
    expect(compareVersions('20.20.2', '22.12.0')).toBeLessThan(0);
    expect(compareVersions('v22.12.0', '22.12.0')).toBe(0);
    expect(compareVersions('22.9.0', '22.12.0')).toBeLessThan(0);
    expect(compareVersions('24.0.0', '22.12.0')).toBeGreaterThan(0);
  });

  it('the suite itself runs on a supported node, and asks for no other', () => {
    console.log(`tests run on Node ${process.versions.node}`);
    expect(compareVersions(process.versions.node, NODE_FLOOR)).toBeGreaterThanOrEqual(0);
    expect(toolchainBinDir()).toBeUndefined();
  });

  const older = olderSystemNode();
  // On these machines the system node is 20: the re-exec is exercised for real. A machine whose
  // system node is already supported has nothing to re-exec (the previous test covers it).
  it.runIf(older !== undefined)('a script started by an older system node re-runs itself on Node 24 from the registry package, saying so in one line', () => {
    const dir = mkdtempSync(join(tmpdir(), 'a3s-node-runtime-'));
    try {
      const script = join(dir, 'probe.mjs');
      writeFileSync(script, `import { reexecOnSupportedNode } from ${JSON.stringify(pathToFileURL(join(here, 'node-runtime.mjs')).href)};\nreexecOnSupportedNode('probe');\nconsole.log(process.version, process.argv.slice(2).join(' '));\n`);
      const result = spawnSync(older!, [script, 'a', 'b'], { encoding: 'utf8', timeout: 110_000 });
      expect(result.status, result.stderr).toBe(0);
      expect(result.stdout.trim()).toMatch(/^v24\.\d+\.\d+ a b$/);
      const lines = result.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^probe: system node 20\.\d+\.\d+ is older than 22\.12\.0; using Node 24\.\d+\.\d+ from the registry package node-linux-(x64|arm64) \(/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
