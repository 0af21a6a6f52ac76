import { describe, expect, it } from 'vitest';
import * as testing from './index.js';

describe('@a3s-lab/code/testing', () => {
  it('exports exactly these runtime values', () => {
    expect(Object.keys(testing).sort()).toEqual([
      'FakeLlmClient',
      'MemoryWorkspaceBackend',
      'callContent',
      'callEvents',
      'createTestToolContext',
      'describeSessionStoreContract',
      'describeWorkspaceContract',
      'globToRegExp',
      'sampleSessionSnapshot',
      'sessionStoreContract',
      'textTurn',
      'toolTurn',
    ]);
  });
});
