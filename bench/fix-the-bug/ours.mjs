// Child of loop.bench.ts: the scripted fix-the-bug job through @a3s-lab/code (Agent + session with
// every built-in tool). The entry is the built package (plain node) or its sources (under tsx).
// Prints peak RSS and the tool call count as JSON on its last line. A3S_JOB_SANDBOX=off: the same job
// without the OS sandbox (a diagnostic side of compare.ts: what bubblewrap costs per bash call).
import { cpuPerTurnMs } from './request-cpu.mjs';
const { Agent } = await import(process.env.A3S_SDK_ENTRY);
const agent = await Agent.create(process.env.A3S_ACL);
const session = agent.session(process.env.A3S_DIR, { permissionPolicy: { defaultDecision: 'allow' }, ...(process.env.A3S_JOB_SANDBOX === 'off' ? { sandbox: { mode: 'off' } } : {}) });
const result = await session.send('The add() test fails. Find the bug and fix it.');
await agent.close();
console.log(JSON.stringify({ maxRssKb: process.resourceUsage().maxRSS, cpuPerTurnMs: cpuPerTurnMs(), toolCalls: result.toolCallsCount, text: result.text }));
