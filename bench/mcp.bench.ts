// MCP bridge benchmark: per-call cost of an MCP tool called through the governed kernel
// (`kernel.invoke`, origin `agent`, a permission policy that allows `mcp__fx__*`, events emitted,
// the result mapped to tool output, redacted and bounded) versus calling the
// `@modelcontextprotocol/sdk` Client directly (`client.callTool`) — the very same Client, connected
// to the very same fixture MCP server process, in the same run — so the difference is exactly
// what the bridge and the kernel add. Once over stdio, once over Streamable HTTP on 127.0.0.1.
// Rounds alternate between the two paths; the bench prints median wall-clock µs per call and the
// ratio, and the host process's CPU time per call on each path (user + system, which a loaded
// machine distorts far less than wall-clock latency of a process round trip).
// Target: ratio <= 1.2x on each transport.
//
// Run: node --expose-gc --conditions=@a3s-lab/source --import tsx bench/mcp.bench.ts
import { performance } from 'node:perf_hooks';
import { InvocationKernel, ToolRegistry } from '../packages/core/src/kernel.js';
import { MemoryWorkspaceBackend } from '../packages/core/src/testing/index.js';
import { McpManager } from '../packages/mcp/src/index.js';
import type { McpTransportConfig } from '../packages/mcp/src/index.js';
import { fixtureMcpStdioCommand, startFixtureMcpHttpServer } from '../packages/testing/src/mcp/index.js';

const ROUNDS = 20;
const CALLS_PER_ROUND = 100;
const WARMUP_CALLS = 300;

// undici (fetch) removes its abort listeners from the HTTP transport's signal when requests are
// collected; collecting between rounds keeps thousands of back-to-back calls from piling them up.
const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

async function measure(label: string, transport: McpTransportConfig): Promise<number> {
  const manager = new McpManager();
  const connection = await manager.add({ name: 'fx', transport });
  const client = connection.client;
  if (client === null) throw new Error('not connected');
  let events = 0;
  const kernel = new InvocationKernel({
    registry: new ToolRegistry(manager.toolsOf('fx').tools),
    workspace: new MemoryWorkspaceBackend(),
    sessionId: 'bench',
    emit: () => void (events += 1),
    permissionPolicy: { allow: ['mcp__fx__*'], defaultDecision: 'deny' },
  });

  const args = { text: 'hello from the benchmark' };
  const viaKernel = async (): Promise<void> => {
    const result = await kernel.invoke({ toolName: 'mcp__fx__echo', args, origin: 'agent' });
    if (result.exitCode !== 0 || result.output !== args.text) throw new Error(`kernel call failed: ${result.output}`);
  };
  const viaClient = async (): Promise<void> => {
    const result = await client.callTool({ name: 'echo', arguments: args });
    const first = (result.content as { type: string; text?: string }[])[0];
    if (result.isError === true || first?.text !== args.text) throw new Error('raw call failed');
  };
  for (let index = 0; index < WARMUP_CALLS; index += 1) {
    await viaKernel();
    await viaClient();
    if (index % 100 === 0) gc();
  }
  const kernelRounds: number[] = [];
  const clientRounds: number[] = [];
  const kernelCpu: number[] = [];
  const clientCpu: number[] = [];
  const round = async (call: () => Promise<void>, wall: number[], cpu: number[]): Promise<void> => {
    gc();
    const startCpu = process.cpuUsage();
    const start = performance.now();
    for (let index = 0; index < CALLS_PER_ROUND; index += 1) await call();
    wall.push(((performance.now() - start) * 1000) / CALLS_PER_ROUND);
    const used = process.cpuUsage(startCpu);
    cpu.push((used.user + used.system) / CALLS_PER_ROUND);
  };
  for (let index = 0; index < ROUNDS; index += 1) {
    // Alternate which path goes first, so drift in the machine's load hits both alike.
    if (index % 2 === 0) {
      await round(viaKernel, kernelRounds, kernelCpu);
      await round(viaClient, clientRounds, clientCpu);
    } else {
      await round(viaClient, clientRounds, clientCpu);
      await round(viaKernel, kernelRounds, kernelCpu);
    }
  }
  await manager.close();
  const kernelUs = median(kernelRounds);
  const clientUs = median(clientRounds);
  const ratio = kernelUs / clientUs;
  console.log(
    `${label}: kernel ${kernelUs.toFixed(1)} µs/call, raw client ${clientUs.toFixed(1)} µs/call, overhead ${(kernelUs - clientUs).toFixed(1)} µs; ratio ${ratio.toFixed(2)}x (target <= 1.2x -> ${ratio <= 1.2 ? 'met' : 'MISSED'}) [${events} events]`,
  );
  console.log(`${label}: host CPU per call: kernel ${median(kernelCpu).toFixed(1)} µs, raw client ${median(clientCpu).toFixed(1)} µs, bridge + kernel ${(median(kernelCpu) - median(clientCpu)).toFixed(1)} µs`);
  return ratio;
}

await measure('stdio', { type: 'stdio', ...fixtureMcpStdioCommand() });
const http = await startFixtureMcpHttpServer();
await measure('streamable-http', { type: 'streamable-http', url: http.url });
await http.close();
