import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { defineConfig } from 'vitest/config';

/**
 * The files that take a minute or more of one worker: started first, so none of them is the tail
 * of the run while the other workers sit idle. Without a results cache (a fresh clone, CI) vitest
 * orders by project name and then file size, which put the packed-install check (a 26-line file
 * that packs, installs and runs every package for two Node versions) last.
 */
const LONG_FIRST = [
  'packages/sdk/test/packed-install.test.ts',
  'tooling/readme/readme-examples.test.ts',
  'packages/sdk/test/fleet-schedules.test.ts',
  'packages/sdk/test/fleet-kills.test.ts',
  'packages/sdk/test/mcp.test.ts',
  'apps/server/test/browser-ui.test.ts',
  'apps/server/test/fleet-host.test.ts',
  'apps/cli/test/binary-conventions.test.ts',
];

const rank = (spec: TestSpecification): number => {
  const index = LONG_FIRST.findIndex((file) => spec.moduleId.endsWith(`/${file}`));
  return index === -1 ? LONG_FIRST.length : index;
};

/** vitest's own order (failed first, then longest by the results cache, else largest), with {@link LONG_FIRST} in front. */
class LongFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    // Array#sort is stable: the rest keeps vitest's order.
    return (await super.sort(files)).toSorted((a, b) => rank(a) - rank(b));
  }
}

// One run over every package's own vitest config (each package keeps its own settings),
// so the README's test command yields a single JSON report.
export default defineConfig({
  test: {
    sequence: { sequencer: LongFirstSequencer },
    projects: ['packages/*/vitest.config.mjs', 'packages/sdk/vitest.isolated.config.mjs', 'apps/*/vitest.config.mjs', 'tooling/lint/vitest.config.mjs', 'tooling/scripts/vitest.config.mjs', 'tooling/readme/vitest.config.mjs'],
  },
});
