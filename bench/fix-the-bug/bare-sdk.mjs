// Child of loop.bench.ts: the same scripted fix-the-bug job through a bare @anthropic-ai/sdk loop
// (messages.stream, loaded as our Anthropic client loads it: its CommonJS build) with the same 4
// plain tools as bare.mjs. Not a goal row: it shows what the provider SDK that A3S Code must use
// costs on its own, next to the `ai` loop (whose @ai-sdk/anthropic is its own fetch client).
import { cpuPerTurnMs } from './request-cpu.mjs';
import { createRequire } from 'node:module';
import { plainTools, SYSTEM_PROMPT, TASK } from './plain-tools.mjs';

const Anthropic = createRequire(new URL('../../packages/anthropic/package.json', import.meta.url))('@anthropic-ai/sdk').default;
const client = new Anthropic({ apiKey: 'sk-ant-test-key-000000', baseURL: process.env.A3S_BASE_URL, maxRetries: 0 });
const tools = Object.entries(plainTools).map(([name, { description, schema }]) => ({ name, description, input_schema: schema }));
const messages = [{ role: 'user', content: TASK }];
let toolCalls = 0;
let text = '';
for (let step = 0; step < 20; step += 1) {
  const message = await client.messages.stream({ model: 'claude-test', max_tokens: 4096, system: SYSTEM_PROMPT, tools, messages }).finalMessage();
  messages.push({ role: 'assistant', content: message.content });
  const calls = message.content.filter((block) => block.type === 'tool_use');
  text = message.content.filter((block) => block.type === 'text').map((block) => block.text).join('');
  if (calls.length === 0) break;
  const results = [];
  for (const call of calls) {
    toolCalls += 1;
    results.push({ type: 'tool_result', tool_use_id: call.id, content: await plainTools[call.name].execute(call.input) });
  }
  messages.push({ role: 'user', content: results });
}
console.log(JSON.stringify({ maxRssKb: process.resourceUsage().maxRSS, cpuPerTurnMs: cpuPerTurnMs(), toolCalls, text }));
