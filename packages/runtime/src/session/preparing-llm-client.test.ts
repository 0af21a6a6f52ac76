import { describe, expect, it } from 'vitest';
import { MemoryWorkspaceBackend } from '@a3s-lab/code-core/testing';
import type { LlmClient, LlmStreamEvent } from '@a3s-lab/code-core';

import { preparingLlmClient, prepareTools } from './preparing-llm-client.js';
import type { RequestSentSignal } from './preparing-llm-client.js';

/** A signal the test fires by hand; it records arming and cancelling. */
function manualSignal(): { signal: RequestSentSignal; fire: () => void; readonly armed: number; readonly cancelled: number } {
  const state = { armed: 0, cancelled: 0, listener: undefined as (() => void) | undefined };
  return {
    signal: (onSent) => {
      state.armed += 1;
      state.listener = onSent;
      return () => {
        state.cancelled += 1;
        state.listener = undefined;
      };
    },
    fire: () => state.listener?.(),
    get armed() {
      return state.armed;
    },
    get cancelled() {
      return state.cancelled;
    },
  };
}

/** A model whose stream runs `during` (the request "in flight") before its one event, or fails. */
function model(during: () => void, fail = false): LlmClient {
  return {
    provider: 'test',
    model: 'm',
    async *stream(): AsyncIterable<LlmStreamEvent> {
      during();
      if (fail) throw new Error('model failed');
      yield { type: 'text_delta', text: 'hi' } as LlmStreamEvent;
    },
  };
}

const drain = async (stream: AsyncIterable<LlmStreamEvent>): Promise<number> => {
  let count = 0;
  for await (const _event of stream) count += 1;
  return count;
};

describe('preparingLlmClient', () => {
  it('prepares once, while the first stream that sends waits; later streams pass straight through', async () => {
    const sent = manualSignal();
    let prepared = 0;
    const llm = preparingLlmClient(model(() => {
      sent.fire();
      sent.fire();
    }), sent.signal, () => void (prepared += 1));
    expect(llm.provider).toBe('test');
    expect(await drain(llm.stream({ messages: [], tools: [] } as never))).toBe(1);
    expect(prepared).toBe(1);
    expect(sent.cancelled).toBe(1);
    expect(await drain(llm.stream({ messages: [], tools: [] } as never))).toBe(1);
    expect(sent.armed).toBe(1);
    expect(prepared).toBe(1);
  });

  it('a stream that sent nothing prepares nothing and is disarmed even when it fails; the next one arms again', async () => {
    const sent = manualSignal();
    let prepared = 0;
    const failing = preparingLlmClient(model(() => undefined, true), sent.signal, () => void (prepared += 1));
    await expect(drain(failing.stream({ messages: [], tools: [] } as never))).rejects.toThrow('model failed');
    expect(sent.cancelled).toBe(1);
    sent.fire();
    expect(prepared).toBe(0);
    await expect(drain(failing.stream({ messages: [], tools: [] } as never))).rejects.toThrow('model failed');
    expect(sent.armed).toBe(2);
  });
});

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

describe('prepareTools', () => {
  it('asks the workspace to prepare; one whose prepare throws or rejects changes nothing', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown): void => void unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      for (const failure of ['none', 'reject', 'throw'] as const) {
        const workspace = new PreparingBackend(failure);
        expect(() => prepareTools(workspace)).not.toThrow();
        await new Promise((resolve) => setImmediate(resolve));
        expect(workspace.calls, failure).toBe(1);
      }
      expect(() => prepareTools(new MemoryWorkspaceBackend())).not.toThrow();
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
