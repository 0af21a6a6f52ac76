// Walks the whole v1 event catalogue and the hook list: one session tour makes every event type
// happen through a real path and every hook fire, each event validating against events.v1.json.
// A type or hook added to the catalogue without an emitting path fails this test.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterEach, describe, expect, it } from 'vitest';
import { errorResponse, textResponse, toolCallResponse } from '@a3s-lab/code-testing';
import type { AgentEvent, SessionStore } from '../src/index.js';
import { AGENT_EVENT_TYPES_V1, CodeError, MemorySessionStore } from '../src/index.js';
import { HOOK_EVENTS } from '@a3s-lab/code-core';
import { startFixtureMcpHttpServer } from '@a3s-lab/code-testing/mcp';
import { startHarness } from './harness.js';
import type { Harness } from './harness.js';

const require = createRequire(import.meta.url);
const validate = new Ajv2020({ strict: true, allErrors: true }).compile(JSON.parse(readFileSync(require.resolve('@a3s-lab/code-core/schemas/events.v1.json'), 'utf8')) as object);

let h: Harness | undefined;
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
});

describe('event catalogue and hook list', () => {
  it('every v1 event type is emitted and every hook fires on a real path', { timeout: 60_000 }, async () => {
    const seen = new Set<string>();
    const fired = new Set<string>();
    const invalid: string[] = [];
    const allEvents: AgentEvent[] = [];
    const collect = (e: AgentEvent): void => {
      allEvents.push(e);
      seen.add(e.type);
      if (!validate(JSON.parse(JSON.stringify(e)))) invalid.push(`${e.type}: ${JSON.stringify(validate.errors)}`);
    };
    const hookAll = (session: { registerHook: (id: string, event: (typeof HOOK_EVENTS)[number], m: null, c: null, f: () => { action: 'continue' }) => void }): void => {
      for (const event of HOOK_EVENTS) session.registerHook(`spy-${event}`, event, null, null, () => (fired.add(event), { action: 'continue' }));
    };

    h = await startHarness('anthropic', [
      // 1. planning + reasoning + text + a tool whose input streams + update_plan steps
      toolCallResponse('submit_plan', { steps: ['Look', 'Answer'] }),
      { reasoning: 'Think first.', text: 'Looking.', toolCalls: [{ name: 'update_plan', input: { plan: [{ step: 'Look', status: 'in_progress' }, { step: 'Answer', status: 'pending' }] } }] },
      toolCallResponse('update_plan', { plan: [{ step: 'Look', status: 'completed' }, { step: 'Answer', status: 'completed' }] }),
      textResponse('Done.'),
      // 2. generate_object (tool_output_delta), a subagent, a confirmation answered, a denial, a confirmation timing out
      toolCallResponse('submit_plan', { steps: ['Do it all'] }),
      toolCallResponse('generate_object', { schema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] }, prompt: 'n=1' }),
      toolCallResponse('result', { n: 1 }, { toolInputChunks: 4, chunkDelayMs: 120 }),
      toolCallResponse('task', { agent: 'explore', description: 'look', prompt: 'child: look' }),
      textResponse('child saw it'),
      toolCallResponse('write', { file_path: 'ok.txt', content: 'x' }),
      toolCallResponse('bash', { command: 'rm -rf /tmp/nothing-here' }),
      toolCallResponse('edit', { file_path: 'ok.txt', old_string: 'x', new_string: 'y' }),
      textResponse('Second done.'),
      // 3. a failing run (error, on_error)
      toolCallResponse('submit_plan', { steps: ['Fail'] }),
      errorResponse(400, { message: 'bad request' }),
    ], { 'a.txt': 'hello\n' });
    const broken: SessionStore = { ...new MemorySessionStore(), name: 'broken', capabilities: { atomicSessionSnapshots: true, synchronousLoad: false, durable: true }, save: async () => Promise.reject(new CodeError('IO_ERROR', 'disk full')), load: async () => null, delete: async () => false, list: async () => [] };
    const session = h.agent.session(h.dir, {
      planningMode: 'enabled',
      permissionPolicy: { ask: ['write', 'edit'], deny: ['bash(rm *)'], defaultDecision: 'allow' },
      confirmationPolicy: { defaultTimeoutMs: 300, timeoutAction: 'reject' },
      sessionStore: broken,
      autoSave: true,
      budget: { maxTokens: 1_000_000, softThresholds: [0.000001] },
    });
    hookAll(session);
    session.onEvent((e) => {
      collect(e);
      if (e.type === 'confirmation_required' && e.toolName === 'write') void session.confirmToolUse(e.toolId, true);
    });
    await session.send('1. look at a.txt\n2. answer');
    await session.send('generate, delegate, write, delete, edit');
    await expect(session.send('fail')).rejects.toMatchObject({ code: 'LLM_ERROR' });
    await session.flushSaves();
    await session.closeAsync();

    // 4. context compaction in a small window
    h.server.setScenario([textResponse('Summary of the earlier work.'), textResponse('compacted answer')]);
    const small = h.agent.session(h.dir, { autoCompact: true, maxContextTokens: 2000, autoCompactThreshold: 0.5 });
    small.onEvent(collect);
    await small.send({ prompt: 'continue', history: Array.from({ length: 12 }, (_, i) => ({ role: i % 2 === 0 ? ('user' as const) : ('assistant' as const), content: [{ type: 'text' as const, text: `turn ${i} ${'words '.repeat(150)}` }] })) });

    // An MCP server changes a tool after it was accepted: mcp_tools_changed.
    const mcpServer = await startFixtureMcpHttpServer();
    try {
      const withMcp = await h.agent.sessionAsync(h.dir);
      withMcp.onEvent(collect);
      await withMcp.addMcp({ name: 'fx', transport: { type: 'http', url: mcpServer.url } });
      await withMcp.tool('mcp__fx__mutate_tool', { name: 'echo', description: 'changed' });
      await expect.poll(() => seen.has('mcp_tools_changed')).toBe(true);
    } finally {
      await mcpServer.close();
    }

    // The tour went the way it was scripted: the object, the child and the confirmed write happened.
    expect(allEvents.find((e) => e.type === 'tool_end' && e.toolName === 'generate_object')?.exitCode).toBe(0);
    expect(allEvents.find((e) => e.type === 'subagent_end')?.payload['status']).toBe('completed');
    expect(allEvents.find((e) => e.type === 'confirmation_timeout')?.toolName).toBe('edit');
    const missingEvents = AGENT_EVENT_TYPES_V1.filter((t) => !seen.has(t));
    const missingHooks = HOOK_EVENTS.filter((e) => !fired.has(e));
    expect({ missingEvents, missingHooks, invalid }).toEqual({ missingEvents: [], missingHooks: [], invalid: [] });
  });
});
