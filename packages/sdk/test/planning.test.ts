// Planning through the public SDK against the scripted model server: planningMode (tri-state and
// the legacy boolean), the planning phase and its events, update_plan with task_updated /
// step_start / step_end, the pre_planning and post_planning hook samples, and the plan across
// save and resume.
import { afterEach, describe, expect, it } from 'vitest';
import { systemPromptOf, textResponse, toolCallResponse, toolNamesOf } from '@a3s-lab/code-testing';
import type { RecordedRequest } from '@a3s-lab/code-testing';
import type { AgentEvent } from '../src/index.js';
import { MemorySessionStore } from '../src/index.js';
import { PROTOCOLS, startHarness } from './harness.js';
import type { Harness } from './harness.js';

const isPlanner = (r: RecordedRequest): boolean => toolNamesOf(r).length === 1 && toolNamesOf(r)[0] === 'submit_plan';
const plannerText = (r: RecordedRequest): string => JSON.stringify(r.body);

let h: Harness | undefined;
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
});

describe.each(PROTOCOLS)('planning over the %s wire protocol', (protocol) => {
  it("planningMode 'enabled' plans first, then executes against the plan; update_plan drives task_updated, step_start and step_end", async () => {
    h = await startHarness(protocol, [
      toolCallResponse('submit_plan', { strategy: 'inspect then fix', steps: ['Read the failing test', 'Fix the bug', 'Run the tests'] }),
      toolCallResponse('update_plan', { plan: [{ step: 'Read the failing test', status: 'in_progress' }, { step: 'Fix the bug', status: 'pending' }, { step: 'Run the tests', status: 'pending' }] }),
      toolCallResponse('update_plan', { plan: [{ step: 'Read the failing test', status: 'completed' }, { step: 'Fix the bug', status: 'completed' }, { step: 'Run the tests', status: 'completed' }] }),
      textResponse('All done.'),
    ]);
    const session = await h.agent.sessionAsync(h.dir, { planningMode: 'enabled' });
    const stream = await session.stream('Fix the auth test');
    const events: AgentEvent[] = [];
    for await (const e of stream) events.push(e);
    expect((await stream.result).text).toBe('All done.');
    const types = events.map((e) => e.type);
    expect(types.slice(0, 4)).toEqual(['agent_start', 'planning_start', 'task_updated', 'planning_end']);
    const planningEnd = events.find((e) => e.type === 'planning_end');
    expect(planningEnd?.payload).toMatchObject({ success: true, strategy: 'inspect then fix', plan: [{ id: 'step_1', step: 'Read the failing test', status: 'pending' }, { id: 'step_2' }, { id: 'step_3' }] });
    expect(events.filter((e) => e.type === 'step_start').map((e) => e.payload['step_id'])).toEqual(['step_1']);
    expect(events.filter((e) => e.type === 'step_end').map((e) => e.payload['step_id'])).toEqual(['step_1', 'step_2', 'step_3']);
    expect(events.filter((e) => e.type === 'task_updated')).toHaveLength(3);
    expect(session.plan().map((p) => p.status)).toEqual(['completed', 'completed', 'completed']);
    // The planner got the task; the executor saw the plan in its system prompt.
    expect(isPlanner(h.server.requests[0]!)).toBe(true);
    expect(plannerText(h.server.requests[0]!)).toContain('Fix the auth test');
    expect(systemPromptOf(h.server.requests[1]!)).toContain('1. [pending] Read the failing test');
    expect(systemPromptOf(h.server.requests[2]!)).toContain('1. [in_progress] Read the failing test');
  });

  it("planningMode 'disabled' and planning: false never plan; 'auto' plans only multi-step requests", async () => {
    h = await startHarness(protocol, [textResponse('a'), textResponse('b'), textResponse('c'), toolCallResponse('submit_plan', { steps: ['one', 'two'] }), textResponse('d'), toolCallResponse('submit_plan', { steps: ['x'] }), textResponse('e')]);
    const disabled = await h.agent.sessionAsync(h.dir, { planningMode: 'disabled' });
    await disabled.send('1. do this\n2. then that');
    const legacyOff = await h.agent.sessionAsync(h.dir, { planning: false });
    await legacyOff.send('1. do this\n2. then that');
    const auto = await h.agent.sessionAsync(h.dir);
    expect(auto.snapshot().options.planningMode).toBe('auto');
    await auto.send('What does this repo do?');
    expect(h.server.requests.filter(isPlanner)).toHaveLength(0);
    await auto.send('Refactor the parser, then update the tests, then bump the version.');
    expect(h.server.requests.filter(isPlanner)).toHaveLength(1);
    const legacyOn = await h.agent.sessionAsync(h.dir, { planning: true });
    expect(legacyOn.snapshot().options.planningMode).toBe('enabled');
    await legacyOn.send('hi');
    expect(h.server.requests.filter(isPlanner)).toHaveLength(2);
  });
});

describe('planning hooks', () => {
  it('spec sample: pre_planning modifies the planner input; post_planning observes the outcome', async () => {
    h = await startHarness('anthropic', [toolCallResponse('submit_plan', { steps: ['Scope the change', 'Test it'] }), textResponse('planned and done')]);
    const session = h.agent.session(h.dir, { planningMode: 'enabled' });
    const observed: Record<string, unknown>[] = [];
    session.registerHook('planning-policy', 'pre_planning', null, null, (event) => ({
      action: 'continue',
      modified: {
        modified_task: `${String(event.payload['task_description'])}\n\nKeep changes scoped and testable.`,
        selected_strategy: 'step_by_step',
        hints: ['Preserve the original user request'],
      },
    }));
    session.registerHook('planning-audit', 'post_planning', null, null, (event) => {
      observed.push({ ...event.payload });
      return { action: 'continue' };
    });
    expect((await session.send('Add rate limiting')).text).toBe('planned and done');
    const planner = plannerText(h.server.requests[0]!);
    expect(planner).toContain('Add rate limiting\\n\\nKeep changes scoped and testable.');
    expect(planner).toContain('Strategy: step_by_step');
    expect(planner).toContain('- Preserve the original user request');
    expect(observed).toEqual([{ task_description: 'Add rate limiting\n\nKeep changes scoped and testable.', selected_strategy: 'step_by_step', subtasks: ['Scope the change', 'Test it'], success: true, error: null }]);
  });

  it('a pre_planning hook that blocks skips planning (no planner call); the run still executes', async () => {
    h = await startHarness('openai', [textResponse('executed without a plan')]);
    const session = h.agent.session(h.dir, { planningMode: 'enabled' });
    session.registerHook('no-plans', 'pre_planning', null, null, () => ({ action: 'block', reason: 'plans are off today' }));
    const stream = await session.stream('Do it');
    const events: AgentEvent[] = [];
    for await (const e of stream) events.push(e);
    expect((await stream.result).text).toBe('executed without a plan');
    expect(h.server.requests.filter(isPlanner)).toHaveLength(0);
    expect(events.find((e) => e.type === 'planning_end')?.payload).toMatchObject({ success: false, error: expect.stringContaining('plans are off today'), plan: [] });
  });

  it('the plan survives save and resume', async () => {
    h = await startHarness('anthropic', [toolCallResponse('submit_plan', { steps: ['a', 'b'] }), toolCallResponse('update_plan', { plan: [{ step: 'a', status: 'completed' }, { step: 'b', status: 'in_progress' }] }), textResponse('halfway'), textResponse('continuing')]);
    const store = new MemorySessionStore();
    const session = await h.agent.sessionAsync(h.dir, { planningMode: 'enabled', sessionStore: store });
    await session.send('Two things');
    await session.save();
    const resumed = await h.agent.resumeSessionAsync(session.id, { sessionStore: store, planningMode: 'disabled' });
    expect(resumed.plan()).toEqual([{ id: 'step_1', step: 'a', status: 'completed' }, { id: 'step_2', step: 'b', status: 'in_progress' }]);
    await resumed.send('go on');
    expect(systemPromptOf(h.server.requests.at(-1)!)).toContain('2. [in_progress] b');
  });
});
