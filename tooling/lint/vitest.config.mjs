import { createVitestConfig } from '@a3s-lab/vitest-config';

export default createVitestConfig({ name: 'api-report', include: ['*.test.ts'], testTimeout: 120_000 });
