import { describe, expect, it } from 'vitest';
import * as runtime from './index.js';

describe('@a3s-lab/code-runtime public surface', () => {
  it('exports exactly these runtime values', () => {
    // Adding or removing an export is an API decision: update this list on purpose.
    expect(Object.keys(runtime).sort()).toEqual([
      'AgentSession',
      'COMPACTION_SUMMARY_MARKER',
      'COMPACTION_SYSTEM_PROMPT',
      'SESSION_OPTION_NAMES',
      'builtinSubagents',
      'journaledLlmClient',
      'otelApi',
      'preloadOpenTelemetry',
      'resolveSessionOptions',
      'workerDefinition',
    ]);
  });
});
