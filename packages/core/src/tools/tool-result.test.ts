import { describe, expect, it } from 'vitest';
import { toolFailure } from './tool-result.js';

describe('toolFailure', () => {
  it('builds a failed output with exit code 1 and nothing optional when not given', () => {
    const failure = toolFailure('it broke');
    expect(failure).toEqual({ output: 'it broke', exitCode: 1 });
    expect('errorKind' in failure).toBe(false);
    expect('metadata' in failure).toBe(false);
  });

  it('carries the error kind', () => {
    expect(toolFailure('missing', { type: 'not_found', path: 'a.txt' })).toEqual({ output: 'missing', exitCode: 1, errorKind: { type: 'not_found', path: 'a.txt' } });
  });

  it('carries metadata with or without an error kind', () => {
    expect(toolFailure('x', undefined, { attempts: 2 })).toEqual({ output: 'x', exitCode: 1, metadata: { attempts: 2 } });
    expect(toolFailure('x', { type: 'partial_failure', failed: [1], total: 3 }, { batch: true })).toEqual({
      output: 'x',
      exitCode: 1,
      errorKind: { type: 'partial_failure', failed: [1], total: 3 },
      metadata: { batch: true },
    });
  });
});
