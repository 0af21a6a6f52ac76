import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../events/agent-event.js';
import { ConfirmationManager } from './confirmation-manager.js';
import type { ConfirmationRequest } from './confirmation-manager.js';

// Servers that number calls per message (`call_0` every turn) reuse tool ids: a late answer to
// an earlier call must never approve a later call with the same id.
const base: Omit<ConfirmationRequest, 'toolId'> = { toolName: 'bash', args: { command: 'rm -rf build' }, lane: 'execute' } as Omit<ConfirmationRequest, 'toolId'>;

describe('confirmations of a reused tool id', () => {
  it.each([
    ['after a timeout', async (manager: ConfirmationManager) => void (await manager.request({ ...base, toolId: 'call_0', timeoutMs: 5 }))],
    ['after a denial', async (manager: ConfirmationManager) => {
      const first = manager.request({ ...base, toolId: 'call_0' });
      manager.confirm('call_0', false);
      await first;
    }],
    ['after an approval', async (manager: ConfirmationManager) => {
      const first = manager.request({ ...base, toolId: 'call_0' });
      manager.confirm('call_0', true);
      await first;
    }],
    ['after a cancellation', async (manager: ConfirmationManager) => {
      const controller = new AbortController();
      const first = manager.request({ ...base, toolId: 'call_0', abortSignal: controller.signal });
      controller.abort();
      await first;
    }],
  ])('%s, a late answer by tool id does not approve the new request; its confirmation id does', async (_name, settleFirst) => {
    const events: AgentEvent[] = [];
    const manager = new ConfirmationManager({ defaultTimeoutMs: 60_000 }, { emit: (event) => events.push(event) });
    await settleFirst(manager);
    const second = manager.request({ ...base, toolId: 'call_0' });
    // The human's late "yes" meant for the first call:
    expect(manager.confirm('call_0', true, 'late')).toBe(false);
    const required = events.filter((event) => event.type === 'confirmation_required').at(-1);
    const confirmationId = String(required?.payload['confirmation_id']);
    expect(manager.pending()[0]?.confirmationId).toBe(confirmationId);
    expect(manager.confirm(confirmationId, false, 'answered for this call')).toBe(true);
    expect(await second).toMatchObject({ approved: false, reason: 'answered for this call' });
  });

  it('a fresh id is still answered by tool id', async () => {
    const manager = new ConfirmationManager({ defaultTimeoutMs: 60_000 });
    const pending = manager.request({ ...base, toolId: 'toolu_fresh' });
    expect(manager.confirm('toolu_fresh', true)).toBe(true);
    expect(await pending).toMatchObject({ approved: true });
  });
});
