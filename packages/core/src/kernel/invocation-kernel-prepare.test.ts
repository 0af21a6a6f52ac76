import { describe, expect, it } from 'vitest';
import { makeKernel, recordingTool } from '../../test/kernel-kit.js';
import { MemoryWorkspaceBackend } from '../testing/memory-workspace-backend.js';

/** A memory backend whose `prepare` is counted and fails as told. */
class PreparingBackend extends MemoryWorkspaceBackend {
  calls = 0;
  constructor(private readonly failure: 'none' | 'reject' | 'throw') {
    super();
  }
  prepare(): Promise<void> {
    this.calls += 1;
    if (this.failure === 'throw') throw new Error('prepare threw');
    return this.failure === 'reject' ? Promise.reject(new Error('prepare rejected')) : Promise.resolve();
  }
}

describe('InvocationKernel.prepare', () => {
  it("asks the workspace to prepare, and a workspace whose prepare fails changes nothing: the calls still run", async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown): void => void unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      for (const failure of ['none', 'reject', 'throw'] as const) {
        const workspace = new PreparingBackend(failure);
        const { kernel } = makeKernel([recordingTool('echo')], { workspace });
        expect(() => kernel.prepare()).not.toThrow();
        await new Promise((resolve) => setImmediate(resolve));
        expect(workspace.calls, failure).toBe(1);
        const result = await kernel.invoke({ toolName: 'echo', args: { text: 'a' }, origin: 'agent', toolId: `t-${failure}` });
        expect(result.output).toBe('ran a');
      }
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('is a no-op for a workspace without prepare', () => {
    const { kernel } = makeKernel([recordingTool('echo')]);
    expect(() => kernel.prepare()).not.toThrow();
  });
});
