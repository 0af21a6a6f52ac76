import { describe, expect, it } from 'vitest';
import * as testing from './index.js';

describe('@a3s-lab/code-testing public surface', () => {
  it('exports exactly these runtime values', () => {
    // Adding or removing an export is an API decision: update this list on purpose.
    expect(Object.keys(testing).sort()).toEqual([
      'createFixtureWorkspace',
      'errorResponse',
      'hangResponse',
      'lastUserText',
      'llmClientContract',
      'malformedToolCallResponse',
      'reasoningResponse',
      'startScriptedModelServer',
      'systemPromptOf',
      'textResponse',
      'toolCallResponse',
      'toolCallsResponse',
      'toolNamesOf',
      'toolResultsOf',
    ]);
  });
});
