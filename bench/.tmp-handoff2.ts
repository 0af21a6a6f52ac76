import { buildChildEnv } from '../packages/local/src/internal.js';
import { spawnThroughHelper } from '../packages/local/src/search/spawn-helper.js';
const env = buildChildEnv();
console.log('env bytes', JSON.stringify(env).length);
const rows: number[][] = [];
const once = () => new Promise<void>((resolve, reject) => { const t0 = performance.now(); const r: number[] = []; const c = spawnThroughHelper('true', [], { cwd: '/tmp', env, detached: true }); c.once('spawn', () => r[0] = performance.now() - t0); c.once('exit', () => r[1] = performance.now() - t0); c.once('error', reject); c.once('close', () => { r[2] = performance.now() - t0; rows.push(r); resolve(); }); });
for (let i = 0; i < 30; i++) await once();
rows.length = 0;
for (let i = 0; i < 100; i++) await once();
const med = (k: number) => rows.map((r) => r[k]!).sort((a, b) => a - b)[50]!.toFixed(2);
console.log('median ms: spawn(pid+stdout)', med(0), 'exit', med(1), 'close', med(2));
const { execFile } = await import('node:child_process');
const t: number[] = [];
for (let i = 0; i < 60; i++) { const s = performance.now(); await new Promise((r) => execFile('true', [], { cwd: '/tmp', env }, r)); t.push(performance.now() - s); }
console.log('execFile true median', t.sort((a, b) => a - b)[30]!.toFixed(2));
