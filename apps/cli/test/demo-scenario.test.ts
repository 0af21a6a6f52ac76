// The bundled scripted model computes its edit from what it read: on a repo with a different
// bug in a different file it still finds and fixes it, through a real `a3s-code run`.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { startScriptedModelServer } from '@a3s-lab/code-testing';
import type { ScriptedModelServer } from '@a3s-lab/code-testing';
import { createDemoScenario } from '../src/demo-scenario.js';
import { cleanEnv, runMain, tempDir, writeWorkspaceConfig } from './cli-harness.js';

let server: ScriptedModelServer | undefined;
const cleanups: Array<() => void> = [];
afterEach(async () => {
  await server?.close();
  for (const cleanup of cleanups.splice(0)) cleanup();
});

it('fixes an off-by-one it has never seen (a `<=` bound in lib/top.js)', async () => {
  const ws = tempDir('a3s-cli-scn-', {
    'lib/top.js': 'export function largest(xs) {\n  let best = -Infinity;\n  for (let k = 0; k <= xs.length; k++) {\n    if (!(xs[k] <= best)) best = xs[k];\n  }\n  return best;\n}\n',
    'test.js': "import { largest } from './lib/top.js';\nconst got = largest([1, 5, 2]);\nif (got !== 5) { console.log(`FAIL largest([1, 5, 2]): expected 5, got ${got}`); process.exit(1); }\nconsole.log('all 1 tests passed');\n",
  });
  const home = tempDir('a3s-cli-home-');
  cleanups.push(ws.cleanup, home.cleanup);
  server = await startScriptedModelServer({ scenario: createDemoScenario() });
  writeWorkspaceConfig(ws.dir, server, home.dir);
  const result = await runMain(['run', 'fix the tests', '--workspace', ws.dir, '--permission-mode', 'yolo'], { env: cleanEnv(home.dir), cwd: ws.dir });
  // The reasoning on the way is progress (stderr); the final answer alone is on stdout.
  expect(result.stderr).toContain('Found it: on line 3 the loop ran one step past the end of the array');
  expect(result.stdout).toMatch(/^Fixed `largest` in `lib\/top\.js` \(line 3\): the loop ran one step past the end of the array\./);
  expect(result.stderr).toMatch(/^✓ edit {2}lib\/top\.js/m);
  expect(readFileSync(join(ws.dir, 'lib/top.js'), 'utf8')).toContain('for (let k = 0; k < xs.length; k++)');
  expect(result.stdout).toContain('Tests: all 1 tests passed.\n');
  expect(result.code).toBe(0);
  expect(server.errors).toEqual([]);
});
