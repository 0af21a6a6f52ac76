import { describe, expect, it } from 'vitest';
import type { InvocationKernel } from '@a3s-lab/code-core/kernel';

import { ToolCallRunner } from './tool-call-runner.js';
import type { RequestSentSignal } from './tool-call-runner.js';

/** A signal the test fires by hand; it records arming and cancelling. */
function manualSignal(): { signal: RequestSentSignal; fire: () => void; armed: number; cancelled: number } {
  const state = { armed: 0, cancelled: 0, listener: undefined as (() => void) | undefined };
  const signal: RequestSentSignal = (onSent) => {
    state.armed += 1;
    state.listener = onSent;
    return () => {
      state.cancelled += 1;
      state.listener = undefined;
    };
  };
  return {
    signal,
    fire: () => state.listener?.(),
    get armed() {
      return state.armed;
    },
    get cancelled() {
      return state.cancelled;
    },
  };
}

function countingKernel(): { kernel: InvocationKernel; prepared: () => number } {
  let prepared = 0;
  const kernel = { prepare: () => void (prepared += 1) } as unknown as InvocationKernel;
  return { kernel, prepared: () => prepared };
}

describe('ToolCallRunner.preparingWhileWaiting', () => {
  it('prepares the kernel once, when the first run has sent its request; later runs do not arm again', async () => {
    const { kernel, prepared } = countingKernel();
    const sent = manualSignal();
    const runner = new ToolCallRunner(kernel, new Set(), sent.signal);
    const first = await runner.preparingWhileWaiting(async () => {
      expect(prepared()).toBe(0);
      sent.fire();
      sent.fire();
      return 'first';
    });
    expect(first).toBe('first');
    expect(prepared()).toBe(1);
    expect(sent.cancelled).toBe(1);
    await runner.preparingWhileWaiting(async () => 'second');
    expect(sent.armed).toBe(1);
    expect(prepared()).toBe(1);
  });

  it('a run that sent nothing prepares nothing, is disarmed even when it fails, and the next run arms again', async () => {
    const { kernel, prepared } = countingKernel();
    const sent = manualSignal();
    const runner = new ToolCallRunner(kernel, new Set(), sent.signal);
    await expect(runner.preparingWhileWaiting(() => Promise.reject(new Error('model failed')))).rejects.toThrow('model failed');
    expect(sent.cancelled).toBe(1);
    expect(prepared()).toBe(0);
    sent.fire();
    expect(prepared()).toBe(0);
    await runner.preparingWhileWaiting(async () => sent.fire());
    expect(sent.armed).toBe(2);
    expect(prepared()).toBe(1);
  });

  it('without a signal it just runs', async () => {
    const { kernel, prepared } = countingKernel();
    expect(await new ToolCallRunner(kernel).preparingWhileWaiting(async () => 7)).toBe(7);
    expect(prepared()).toBe(0);
  });
});
