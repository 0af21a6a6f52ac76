// Issue 35 item 5: a process a stdio MCP server starts under `setsid` (out of the server's
// process group, so a group kill misses it) is killed when the server is closed.
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { InvocationKernel, ToolRegistry } from '@a3s-lab/code-core/kernel';
import type { ToolSurface } from '@a3s-lab/code-core';
import { MemoryWorkspaceBackend } from '@a3s-lab/code-core/testing';
import { fixtureMcpStdioCommand } from '@a3s-lab/code-testing/mcp';
import { SessionMcp } from '../src/index.js';

/** True while `pid` exists and is not a zombie. */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

/** The process group of `pid` (`/proc/<pid>/stat`, field 5). */
function processGroupOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
}

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

describe.runIf(process.platform === 'linux')('stdio MCP server descendants', () => {
  it('kills a setsid grandchild of the server when the server closes', async () => {
    const registry = new ToolRegistry();
    const kernel = new InvocationKernel({ registry, workspace: new MemoryWorkspaceBackend(), sessionId: 's', emit: () => undefined });
    const surface: ToolSurface = { sessionId: 's', register: (tool) => registry.register(tool), unregister: (name) => registry.unregister(name), has: (name) => registry.has(name) };
    const mcp = new SessionMcp(surface);
    closers.push(() => mcp.close());
    await mcp.addMcp({ name: 'fx', transport: { type: 'stdio', ...fixtureMcpStdioCommand() } });
    const result = await kernel.invoke({ toolName: 'mcp__fx__spawn_escapee', args: {}, origin: 'host-direct' });
    expect(result.exitCode).toBe(0);
    const { pid } = JSON.parse(result.output) as { pid: number };
    expect(alive(pid)).toBe(true);
    // It leaves the server's process group (`setsid` calls setsid() just after its exec, which is
    // when the server reported the pid): a group kill alone would miss it.
    await expect.poll(() => processGroupOf(pid), { timeout: 3000 }).toBe(pid);
    await mcp.close();
    await expect.poll(() => alive(pid), { timeout: 3000 }).toBe(false);
  });
});
