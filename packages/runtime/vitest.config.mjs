import { createVitestConfig } from '@a3s-lab/vitest-config';

export default createVitestConfig({ name: 'runtime', isolate: false });
