// Child of loop.bench.ts: the same scripted fix-the-bug job through a bare Vercel `ai` loop
// (streamText + @ai-sdk/anthropic) with 4 plain tools (read, edit, bash, grep) on node:fs and
// child_process: the floor for a governed harness. Prints peak RSS and the tool call count.
import { cpuPerTurnMs } from './request-cpu.mjs';
import { createAnthropic } from '@ai-sdk/anthropic';
import { jsonSchema, stepCountIs, streamText, tool } from 'ai';
import { plainTools, SYSTEM_PROMPT, TASK } from './plain-tools.mjs';

const tools = Object.fromEntries(Object.entries(plainTools).map(([name, { description, schema, execute }]) => [name, tool({ description, inputSchema: jsonSchema(schema), execute })]));
const anthropic = createAnthropic({ apiKey: 'sk-ant-test-key-000000', baseURL: `${process.env.A3S_BASE_URL}/v1` });
const result = streamText({
  model: anthropic('claude-test'),
  system: SYSTEM_PROMPT,
  prompt: TASK,
  tools,
  stopWhen: stepCountIs(20),
  maxOutputTokens: 4096,
  maxRetries: 0,
});
let toolCalls = 0;
for await (const part of result.fullStream) {
  if (part.type === 'error') throw part.error;
  if (part.type === 'tool-call') toolCalls += 1;
}
console.log(JSON.stringify({ maxRssKb: process.resourceUsage().maxRSS, cpuPerTurnMs: cpuPerTurnMs(), toolCalls, text: await result.text }));
