import { spawn } from 'node:child_process';
import { LocalWorkspaceBackend, findRipgrep, ripgrepFilesArgs } from '../packages/local/src/index.js';
const root = '/tmp/a3s-bench-tree-full-65f02dd5287e';
const rg = (await findRipgrep())!;
const args = ripgrepFilesArgs({ rootReal: root, searchPath: '.', glob: '**/*.json' }).filter((a) => a !== '--sort=path');
const direct = () => new Promise<void>((r) => { const c = spawn(rg, args, { cwd: root, stdio: ['ignore', 'pipe', 'ignore'] }); c.stdout.resume(); c.once('close', () => r()); });
const ours = () => new LocalWorkspaceBackend(root).glob({ pattern: '**/*.json', limit: 200, sort: 'backend' });
const a: number[] = [], b: number[] = [];
for (let i = 0; i < 7; i++) { let t = performance.now(); await ours(); a.push(performance.now() - t); t = performance.now(); await direct(); b.push(performance.now() - t); }
const med = (x: number[]) => x.sort((p, q) => p - q)[3]!;
console.log('ours', med(a).toFixed(0), 'rg', med(b).toFixed(0), 'ratio', (med(a) / med(b)).toFixed(2));
