import { describe, expect, it } from 'vitest';
import { createAgentEvent } from '../events/agent-event.js';
import { DeadlineTimer } from './deadline-timer.js';
import type { DeadlineEntry } from './deadline-timer.js';
import { toolEvent } from './kernel-deps.js';

function entry(deadlineAtMs: number, log: string[], name: string): DeadlineEntry {
  return { deadlineAtMs, deadlinePrev: null, deadlineNext: null, deadlineListed: false, expire: () => void log.push(name) };
}

describe('DeadlineTimer', () => {
  it('expires entries in deadline order with one shared timer, never removed ones', async () => {
    const timer = new DeadlineTimer();
    const log: string[] = [];
    const now = Date.now();
    const late = entry(now + 40, log, 'late');
    const early = entry(now + 10, log, 'early');
    const removed = entry(now + 5, log, 'removed');
    timer.add(late);
    timer.add(early);
    timer.add(removed);
    timer.delete(removed);
    expect(timer.size).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(log).toEqual(['early', 'late']);
    expect(timer.size).toBe(0);
  });
});

describe('toolEvent', () => {
  it('builds the same envelope as createAgentEvent for kernel payloads', () => {
    const payloads: [string, Record<string, unknown>][] = [
      ['tool_start', { tool_id: 't', tool_name: 'n', args: {}, origin: 'agent' }],
      ['tool_output_delta', { tool_id: 't', tool_name: 'n', delta: 'abc' }],
      ['tool_end', { tool_id: 't', tool_name: 'n', exit_code: 0, output: 'ok', origin: 'agent', duration_ms: 1 }],
      ['permission_denied', { tool_id: 't', tool_name: 'n', reason: 'no' }],
    ];
    for (const [type, payload] of payloads) {
      expect(toolEvent(type, payload)).toEqual(createAgentEvent(type, payload));
      expect(toolEvent(type, payload, { parent_tool_id: 'p' })).toEqual(createAgentEvent(type, payload, { parent_tool_id: 'p' }));
    }
  });
});
