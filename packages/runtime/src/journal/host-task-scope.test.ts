import { describe, expect, it } from 'vitest';
import { MemoryRunJournal } from '@a3s-lab/code-core';
import { HostTaskScopes, hostTaskScope } from './host-task-scope.js';

describe('host-direct task scopes', () => {
  it('names a task by what it asks and how many identical ones came before it in the run', () => {
    const task = { agent: 'general', description: 'd', prompt: 'p' };
    const a = hostTaskScope('general', task, 0);
    expect(a).toMatch(/^host_[0-9a-f]{16}_0$/);
    expect(hostTaskScope('general', { ...task }, 0)).toBe(a);
    expect(hostTaskScope('explore', task, 0)).not.toBe(a);
    expect(hostTaskScope('general', { ...task, prompt: 'q' }, 0)).not.toBe(a);
    expect(hostTaskScope('general', { ...task, maxSteps: 3 }, 0)).not.toBe(a);
    const scopes = new HostTaskScopes();
    const run = new MemoryRunJournal('run-1');
    const first = scopes.take(run, [{ agent: 'general', task }, { agent: 'general', task }]).map((s) => s.scope);
    expect(first).toEqual([a, a.replace(/_0$/, '_1')]);
    expect(scopes.take(run, [{ agent: 'general', task }])[0]?.scope).toBe(a.replace(/_0$/, '_2'));
    // Another run (the next attempt's session counts anew) starts from zero.
    expect(scopes.take(new MemoryRunJournal('run-2'), [{ agent: 'general', task }])[0]?.scope).toBe(a);
  });
});
