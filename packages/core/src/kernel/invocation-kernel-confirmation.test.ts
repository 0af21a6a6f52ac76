import { describe, expect, it } from 'vitest';
import { makeKernel, recordingTool, until, writeTool } from '../../test/kernel-kit.js';
import { ConfirmationManager } from '../confirmation/confirmation-manager.js';
import { READ_ONLY_TOOL_CAPABILITIES } from '../tools/tool-capabilities.js';

function setup(policy: ConstructorParameters<typeof ConfirmationManager>[0] = {}) {
  const write = writeTool();
  const confirmation = new ConfirmationManager(policy);
  const kit = makeKernel([write], { confirmation, permissionPolicy: { ask: ['write'] } });
  const start = (toolId: string) => kit.kernel.invoke({ toolName: 'write', args: { path: `${toolId}.txt`, content: 'x' }, origin: 'agent', toolId });
  return { ...kit, write, confirmation, start };
}

describe('kernel confirmation (HITL)', () => {
  it('approve runs the tool; events carry the same tool id', async () => {
    const { confirmation, start, workspace, types } = setup();
    const running = start('c1');
    await until(() => confirmation.pending().length === 1);
    expect(confirmation.pending()[0]).toMatchObject({ toolId: 'c1', toolName: 'write', args: { path: 'c1.txt', content: 'x' } });
    expect(confirmation.confirm('c1', true, 'looks fine')).toBe(true);
    expect((await running).exitCode).toBe(0);
    expect(workspace.paths()).toEqual(['c1.txt']);
    expect(types('c1')).toEqual(['tool_start', 'confirmation_required', 'confirmation_received', 'tool_execution_start', 'tool_end']);
  });

  it('deny refuses with permission_denied and no side effect', async () => {
    const { confirmation, start, workspace, events } = setup();
    const running = start('c2');
    await until(() => confirmation.pending().length === 1);
    confirmation.confirm('c2', false, 'nope');
    const result = await running;
    expect(result.errorKind?.type).toBe('permission_denied');
    expect(result.output).toContain('nope');
    expect(workspace.paths()).toEqual([]);
    expect(events.find((e) => e.type === 'confirmation_received')?.payload).toEqual({ tool_id: 'c2', tool_name: 'write', approved: false, reason: 'nope' });
  });

  it('timeout with reject denies; late and unknown confirmations are refused', async () => {
    const { confirmation, start, workspace, types } = setup({ defaultTimeoutMs: 20 });
    const result = await start('c3');
    expect(result.errorKind?.type).toBe('permission_denied');
    expect(result.output).toContain('timed out');
    expect(types('c3')).toEqual(['tool_start', 'confirmation_required', 'confirmation_timeout', 'permission_denied', 'tool_end']);
    expect(confirmation.confirm('c3', true)).toBe(false);
    expect(confirmation.confirm('never-seen', true)).toBe(false);
    expect(workspace.paths()).toEqual([]);
  });

  it('timeout with auto_approve runs the tool', async () => {
    const { start, workspace, events } = setup({ defaultTimeoutMs: 20, timeoutAction: 'auto_approve' });
    expect((await start('c4')).exitCode).toBe(0);
    expect(workspace.paths()).toEqual(['c4.txt']);
    expect(events.find((e) => e.type === 'confirmation_timeout')?.payload).toEqual({ tool_id: 'c4', tool_name: 'write', action: 'auto_approve' });
  });

  it('a YOLO lane is auto-approved without asking', async () => {
    const reader = recordingTool('reader', undefined, { capabilities: () => READ_ONLY_TOOL_CAPABILITIES });
    const confirmation = new ConfirmationManager({ yoloLanes: ['query'] });
    const { kernel, types } = makeKernel([reader, writeTool()], { confirmation, permissionPolicy: { ask: ['reader', 'write'] } });
    expect((await kernel.invoke({ toolName: 'reader', args: { text: 'a' }, origin: 'agent', toolId: 'y1' })).exitCode).toBe(0);
    expect(types('y1')).toEqual(['tool_start', 'tool_execution_start', 'tool_end']);
    const write = kernel.invoke({ toolName: 'write', args: { path: 'a', content: 'b' }, origin: 'agent', toolId: 'y2' });
    await until(() => confirmation.pending().length === 1);
    confirmation.confirm('y2', false);
    expect((await write).exitCode).toBe(1);
  });

  it('no confirmation provider, or a disabled one, fails closed with a reason saying how to allow', async () => {
    for (const confirmation of [null, new ConfirmationManager({ enabled: false })]) {
      const write = writeTool();
      const { kernel, types } = makeKernel([write], { confirmation, permissionPolicy: { ask: ['write'] } });
      const result = await kernel.invoke({ toolName: 'write', args: { path: 'a', content: 'b' }, origin: 'agent', toolId: 'n1' });
      expect(result.errorKind?.type).toBe('permission_denied');
      expect(result.output).toContain('permissionPolicy.allow');
      expect(write.calls).toEqual([]);
      expect(types('n1')).toEqual(['tool_start', 'permission_denied', 'tool_end']);
    }
  });
});
