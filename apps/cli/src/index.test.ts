import { expect, it } from 'vitest';
import * as cli from './index.js';

it('pins the exported names', () => {
  expect(Object.keys(cli).sort()).toEqual(
    [
      'ConfirmationHandler', 'changePreview', 'DEFAULT_ANTHROPIC_MODEL', 'DEFAULT_OPENAI_MODEL', 'DEMO_PERMISSION_POLICY', 'DEMO_PROMPT', 'DEMO_TEST_COMMAND',
      'EXIT_CODES', 'INTERACTIVE_CONFIRMATION_TIMEOUT_MS', 'JsonRenderer', 'MODEL_PRICES', 'NON_INTERACTIVE_DENIAL', 'PERMISSION_MODES',
      'TerminalRenderer', 'USAGE', 'cliVersion', 'colorWanted', 'configCandidates', 'configFromEnvironment', 'costOf', 'createDemoScenario',
      'createStyle', 'demoCommand', 'demoRepoPath', 'describeCall', 'discoverConfig', 'exitCodeForError', 'formatDiff', 'formatDuration',
      'formatToolLine', 'hasModelKey', 'keyArgument', 'main', 'parseAnswer', 'parseCliArgs', 'parsePermissionMode', 'permissionPolicyFor',
      'priceOf', 'processIo', 'proposeFix', 'runCommand', 'runSession', 'stripAnsi', 'toEnvelope',
    ].sort(),
  );
  expect(cli.EXIT_CODES).toEqual({ success: 0, toolFailure: 1, usage: 2, model: 3, cancelled: 130 });
});
