await import('@a3s-lab/code-postgres');
await import('../src/index.js');
console.log(Math.round(performance.now()));
