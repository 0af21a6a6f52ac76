import { describe, expect, it } from 'vitest';
import { driftedFiles, publishedPackages } from './api-report.mjs';

describe('API report (api/*.md)', () => {
  it('matches the public surface of every published package (regenerate: node tooling/lint/api-report.mjs)', () => {
    expect(driftedFiles()).toEqual([]);
  }, 120_000);

  it('covers exactly these published packages', () => {
    expect(publishedPackages().map((p: { name: string }) => p.name)).toEqual([
      '@a3s-lab/code',
      '@a3s-lab/code-anthropic',
      '@a3s-lab/code-config',
      '@a3s-lab/code-core',
      '@a3s-lab/code-local',
      '@a3s-lab/code-mcp',
      '@a3s-lab/code-openai',
      '@a3s-lab/code-postgres',
      '@a3s-lab/code-ptc',
      '@a3s-lab/code-runtime',
      '@a3s-lab/code-s3',
      '@a3s-lab/code-testing',
      '@a3s-lab/code-tools',
      '@a3s-lab/code-web',
      '@a3s-lab/server',
      'a3s-code',
    ]);
  });
});
