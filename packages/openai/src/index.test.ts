import { describe, expect, it } from 'vitest';
import * as api from './index.js';

describe('@a3s-lab/code-openai exports', () => {
  it('pins the public surface', () => {
    expect(Object.keys(api).sort()).toEqual([
      'OpenAIChunkMapper',
      'createOpenAIClient',
      'toOpenAIRequest',
    ]);
  });
});
