import dc from 'node:diagnostics_channel';
const now = () => (process.env.CPU ? (({ user, system }) => user + system)(process.cpuUsage()) : Number(process.hrtime.bigint() / 1000n));
const marks = [['boot', now()]];
let first = true;
dc.subscribe('undici:request:create', () => { if (first) { first = false; marks.push(['first-request', now()]); } });
const { createAnthropic } = await import('@ai-sdk/anthropic');
const { jsonSchema, stepCountIs, streamText, tool } = await import('ai');
const { plainTools, SYSTEM_PROMPT, TASK } = await import('./plain-tools.mjs');
marks.push(['imported', now()]);
const tools = Object.fromEntries(Object.entries(plainTools).map(([name, { description, schema, execute }]) => [name, tool({ description, inputSchema: jsonSchema(schema), execute })]));
const anthropic = createAnthropic({ apiKey: 'sk-ant-test-key-000000', baseURL: `${process.env.A3S_BASE_URL}/v1` });
const result = streamText({ model: anthropic('claude-test'), system: SYSTEM_PROMPT, prompt: TASK, tools, stopWhen: stepCountIs(20), maxOutputTokens: 4096, maxRetries: 0 });
for await (const part of result.fullStream) { if (part.type === 'error') throw part.error; }
process.stderr.write(marks.map(([n, t]) => `${n}=${t}`).join(' ') + '\n');
