import sdk, { ISOLATED_FILES } from './vitest.config.mjs';

// The sdk files that test what a fresh process has (or has not) loaded: `@opentelemetry/api` stays
// unloaded by a run without a tracer provider. The sdk project shares one module graph per worker
// (isolate: false), where an earlier file may have loaded it; these run isolated.
export default { ...sdk, test: { ...sdk.test, name: 'sdk-isolated', include: ISOLATED_FILES, exclude: [], isolate: true, globalSetup: [] } };
