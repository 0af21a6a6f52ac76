import { createVitestConfig } from '@a3s-lab/vitest-config';

export default createVitestConfig({ name: 'readme', include: ['*.test.ts'], testTimeout: 120_000 });
