// The agent config's session defaults reach child sessions too (issue 29: children were built
// by a second recipe that skipped them): a `task` child's tool calls time out at the ACL's
// `tool_timeout_ms`, and its circuit breaker trips at `circuit_breaker_threshold`.
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { startScriptedModelServer, textResponse, toolCallResponse, toolResultsOf } from '@a3s-lab/code-testing';
import type { RecordedRequest, ScriptedModelServer } from '@a3s-lab/code-testing';
import { Agent } from '../src/index.js';
import { aclFor } from './harness.js';

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

const firstUserText = (r: RecordedRequest): string => JSON.stringify((r.body as { messages?: unknown[] }).messages?.[0] ?? '');

async function setUp(extraAcl: string, child: (r: RecordedRequest, turn: number) => ReturnType<typeof textResponse>): Promise<{ agent: Agent; server: ScriptedModelServer; dir: string }> {
  let childTurn = 0;
  const server = await startScriptedModelServer({ scenario: (r) => (firstUserText(r).includes('CHILD') ? child(r, childTurn++) : textResponse('parent done')) });
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'a3s-child-defaults-')));
  const agent = await Agent.create(aclFor(server, 'anthropic', extraAcl));
  cleanup = async () => {
    await agent.close();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  };
  return { agent, server, dir };
}

it('an agent.acl tool_timeout_ms reaches a subagent\'s tool calls', async () => {
  const { agent, server, dir } = await setUp('tool_timeout_ms = 400', (_r, turn) => (turn === 0 ? toolCallResponse('bash', { command: 'sleep 5' }) : textResponse('child saw the timeout')));
  const session = await agent.sessionAsync(dir, { permissionPolicy: { defaultDecision: 'allow' } });
  const started = Date.now();
  const result = await session.task({ agent: 'general', description: 'sleep', prompt: 'CHILD: run sleep 5' });
  expect(result.status).toBe('completed');
  const childRequests = server.requests.filter((r) => firstUserText(r).includes('CHILD'));
  expect(childRequests).toHaveLength(2);
  const [bashResult] = toolResultsOf(childRequests[1]!);
  expect(bashResult?.content).toContain("Tool 'bash' timed out after 400 ms");
  // The child did not wait for the 5 s command (nor for the 120 s default timeout).
  expect(Date.now() - started).toBeLessThan(4_500);
});

it('an agent.acl circuit_breaker_threshold reaches a subagent\'s turn loop', async () => {
  // The child's every bash call fails; with a threshold of 2 its run stops after the second.
  const { agent, server, dir } = await setUp('circuit_breaker_threshold = 2', (_r, turn) => toolCallResponse('bash', { command: `exit ${turn + 1}` }));
  const session = await agent.sessionAsync(dir, { permissionPolicy: { defaultDecision: 'allow' } });
  const result = await session.task({ agent: 'general', description: 'fail', prompt: 'CHILD: fail repeatedly' });
  expect(result.status).toBe('failed');
  const childRequests = server.requests.filter((r) => firstUserText(r).includes('CHILD'));
  // Two failing calls trip the breaker (the default threshold would allow more turns).
  expect(childRequests).toHaveLength(2);
});
