// Tool-schema budget: the bytes each model-facing tool definition adds to the first model
// request (JSON as sent), the system prompt, and the whole first request body of a session on
// the scripted Anthropic endpoint, against the 16 KB budget of the first request.
//
// Run: node --conditions=@a3s-lab/source --import tsx bench/tool-schema.bench.ts
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent } from '../packages/sdk/src/index.js';
import { startScriptedModelServer, textResponse } from '../packages/testing/src/index.js';

const BUDGET = 16 * 1024;
const server = await startScriptedModelServer({ scenario: [textResponse('ok'), textResponse('ok')] });
const dir = mkdtempSync(join(tmpdir(), 'a3s-schema-bench-'));
const acl = `default_model = "anthropic/claude-test"
providers "anthropic" {
  api_key = "sk-ant-test-key-000000"
  base_url = "${server.anthropicBaseUrl}"
  models "claude-test" { tool_call = true }
}
providers "openai" {
  api_key = "sk-test-openai-000000"
  base_url = "${server.openaiBaseUrl}"
  models "gpt-test" { tool_call = true }
}
`;
try {
  const agent = await Agent.create(acl);
  const session = await agent.sessionAsync(dir);
  let tools = 0;
  for (const definition of session.toolDefinitions()) {
    const bytes = Buffer.byteLength(JSON.stringify(definition));
    tools += bytes;
    console.log(`${definition.name.padEnd(18)} ${String(bytes).padStart(6)} B`);
  }
  console.log(`tool definitions   ${String(tools).padStart(6)} B (${session.toolDefinitions().length} tools)`);
  console.log(`system prompt      ${String(Buffer.byteLength(session.systemPrompt())).padStart(6)} B`);
  await session.send('hi');
  const openai = await agent.sessionAsync(dir, { model: 'openai/gpt-test' });
  await openai.send('hi');
  for (const [label, suffix] of [['anthropic', '/messages'], ['openai', '/chat/completions']] as const) {
    const first = server.requests.find((r) => r.path.endsWith(suffix));
    const body = first?.rawBytes.byteLength ?? 0;
    console.log(`first request body (${label.padEnd(9)}) ${String(body).padStart(6)} B = ${(body / BUDGET).toFixed(2)}x the 16 KB budget`);
  }
  await agent.close();
} finally {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
}
