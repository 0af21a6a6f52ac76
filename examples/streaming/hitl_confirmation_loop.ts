// The streaming, event-driven loop a UI runs: render text as it streams, ask a human for every
// confirmation, show tool results, and replay the run at the end. Answers come from stdin
// (y/n per question), so the same program works in a terminal and driven by another program.
//
//   node --conditions=@a3s-lab/source --import tsx examples/streaming/hitl_confirmation_loop.ts <workspace> "<prompt>"
//   A3S_ACL=path/or/inline.acl (default ./agent.acl)
import { createInterface } from 'node:readline';
import { Agent } from '@a3s-lab/code';

const [workspace = process.cwd(), prompt = 'Run the tests and fix the first failure.'] = process.argv.slice(2);
const answers = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
async function ask(question: string): Promise<boolean> {
  process.stderr.write(`${question} [y/N] `);
  const { value } = await answers.next();
  return typeof value === 'string' && /^y(es)?$/i.test(value.trim());
}

const agent = await Agent.create(process.env['A3S_ACL'] ?? 'agent.acl');
const session = await agent.sessionAsync(workspace, {
  permissionPolicy: { ask: ['bash*', 'write', 'edit', 'patch'], defaultDecision: 'allow' },
  confirmationPolicy: { defaultTimeoutMs: 120_000, timeoutAction: 'reject' },
});

const stream = await session.stream(prompt);
for await (const event of stream) {
  switch (event.type) {
    case 'text_delta':
      process.stdout.write(event.text);
      break;
    case 'confirmation_required': {
      const approved = await ask(`\nAllow ${event.toolName} ${JSON.stringify(event.payload.args)}?`);
      await session.confirmToolUse(event.toolId, approved, approved ? 'approved at the prompt' : 'rejected at the prompt');
      break;
    }
    case 'tool_end':
      process.stdout.write(`\n[${event.toolName}] exit ${event.exitCode}\n`);
      break;
    case 'error':
      process.stderr.write(`\nerror ${event.code}: ${event.text}\n`);
      break;
    default:
      // Other event types (turn_start, tool_start, ...) and future ones: not rendered here.
      break;
  }
}

const [run] = await session.runs();
if (run !== undefined) {
  const replay = await session.runEvents(run.id);
  process.stdout.write(`\nrun ${run.id} ${run.status}: ${replay.length} events, ${run.toolCallsCount} tool call(s)\n`);
}
await agent.close();
process.exit(0);
