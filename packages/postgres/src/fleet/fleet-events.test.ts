import { createAgentEvent } from '@a3s-lab/code-core';
import { describe, expect, it } from 'vitest';

import type { Database } from '../database.js';
import { readEvents } from './fleet-events.js';

describe('readEvents', () => {
  it('takes the notification mark before each look: a notification that comes during the look makes the wait return at once', async () => {
    let notified = 0;
    const waits: [number, number][] = [];
    const event = createAgentEvent('agent_end', { text: 'done', usage: {} });
    const pages = [
      // The first look: the run is live, nothing written yet; its notification comes while the look runs.
      () => {
        notified += 1;
        return [{ status: 'running', seq: null, event: null }];
      },
      () => [{ status: 'completed', seq: 1, event }],
    ];
    const db = { query: async () => ({ rows: pages.shift()?.() ?? [] }) } as unknown as Database;
    const seen: string[] = [];
    for await (const e of readEvents({
      db, runId: 'run_x', afterSequence: 0, listening: async () => undefined, closed: () => false,
      mark: () => notified,
      wait: async (mark) => {
        waits.push([mark, notified]);
      },
    })) seen.push(e.type);
    expect(seen).toEqual(['agent_end']);
    // The wait saw a mark older than the notifications: the fleet's wait returns without sleeping.
    expect(waits).toEqual([[0, 1]]);
  });
});
