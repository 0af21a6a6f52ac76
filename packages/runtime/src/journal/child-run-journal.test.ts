import { describe, expect, it } from 'vitest';
import { MemoryRunJournal } from '@a3s-lab/code-core';
import { childRunJournal, childTaskScope } from './child-run-journal.js';

describe('childRunJournal', () => {
  it('records a child run in its parent run\'s journal under the child\'s ids, and reads them back', async () => {
    const parent = new MemoryRunJournal('run-1');
    const scope = childTaskScope('toolu_01.A:b', 1);
    expect(scope).toBe('task_toolu_01_A_b_1');
    const child = childRunJournal(parent, scope);
    expect(child.runId).toBe('run-1/task_toolu_01_A_b_1');
    await child.recordModelResponse(`model-${child.runId}-1`, [{ type: 'text_delta', text: 'hi' }]);
    await child.recordToolStart('tool-c1', { toolName: 'bash', args: {} });
    await child.recordToolOutcome('tool-c1', { output: 'ok', exitCode: 0 });
    await child.recordConfirmationRequest('c2', { toolName: 'write', args: {} });
    expect(parent.steps().map((s) => s.key)).toEqual(['model-run-1/task_toolu_01_A_b_1-1', 'tool-task_toolu_01_A_b_1/c1', 'tool-task_toolu_01_A_b_1/c1', 'confirmation-task_toolu_01_A_b_1/c2']);
    expect(parent.pendingConfirmations()).toEqual(['task_toolu_01_A_b_1/c2']);
    // What the host decides under the scoped id is what the child reads.
    parent.answer('task_toolu_01_A_b_1/c2', { approved: true });
    expect(await child.confirmationAnswer('c2')).toEqual({ approved: true });
    expect(await child.toolCall('tool-c1')).toEqual({ outcome: { output: 'ok', exitCode: 0 }, retry: false, startedAt: expect.any(Number) });
    parent.reconcile('tool-task_toolu_01_A_b_1/c3', { retry: true });
    expect(await child.toolCall('tool-c3')).toEqual({ outcome: null, retry: true });
    // The parent's own steps are not the child's.
    expect(await parent.toolCall('tool-c1')).toBeNull();
    expect(await child.modelResponse('model-run-1-1')).toBeNull();
  });

  it('calls beforeLive at each step that is not recorded (not at recorded ones), and stops the child when it throws', async () => {
    const parent = new MemoryRunJournal('run-2');
    const scope = childTaskScope('toolu_9', 0);
    await childRunJournal(parent, scope).recordModelResponse('model-run-2/task_toolu_9_0-1', [{ type: 'text_delta', text: 'recorded' }]);
    const live: string[] = [];
    let stop = false;
    const child = childRunJournal(parent, scope, {
      beforeLive: () => {
        live.push('live');
        if (stop) throw new Error('deadline passed');
      },
    });
    expect(await child.modelResponse('model-run-2/task_toolu_9_0-1')).toEqual([{ type: 'text_delta', text: 'recorded' }]);
    expect(live).toEqual([]);
    expect(await child.modelResponse('model-run-2/task_toolu_9_0-2')).toBeNull();
    expect(await child.toolCall('tool-x')).toBeNull();
    expect(await child.confirmationAnswer('x')).toBeNull();
    expect(live).toEqual(['live', 'live', 'live']);
    stop = true;
    await expect(child.modelResponse('model-run-2/task_toolu_9_0-2')).rejects.toThrow('deadline passed');
  });
});
