// Stdio servers that misbehave below the MCP layer: a server that never answers, an endless
// line, a call cancelled by the host (the server is told with notifications/cancelled).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CodeError } from '@a3s-lab/code-core';
import { InvocationKernel, ToolRegistry } from '@a3s-lab/code-core/kernel';
import { MemoryWorkspaceBackend } from '@a3s-lab/code-core/testing';
import { fixtureMcpStdioCommand } from '@a3s-lab/code-testing/mcp';
import { McpManager, StdioProcessTransport } from '../src/index.js';

const dir = mkdtempSync(join(tmpdir(), 'a3s-mcp-faults-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('stdio faults', () => {
  it('a server that never answers initialize ends at timeoutMs with MCP_ERROR timeout and nothing is kept', async () => {
    const manager = new McpManager();
    const started = Date.now();
    const error = await manager.add({ name: 'mute', transport: { type: 'stdio', command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'] }, timeoutMs: 500 }).catch((caught: unknown) => caught);
    expect(CodeError.hasCode(error, 'MCP_ERROR') && error.details['reason']).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(manager.statuses()).toEqual([]);
    await manager.close();
  });

  it('an endless line ends the connection instead of growing without bound', async () => {
    const transport = new StdioProcessTransport({
      command: process.execPath,
      args: ['-e', "const chunk = 'x'.repeat(65536); const write = () => process.stdout.write(chunk, write); write();"],
      env: {},
      maxMessageBytes: 256 * 1024,
    });
    const errors: string[] = [];
    let closed = false;
    transport.onerror = (error) => errors.push(error.message);
    transport.onclose = () => {
      closed = true;
    };
    await transport.start();
    await expect.poll(() => closed, { timeout: 10_000 }).toBe(true);
    expect(errors.some((message) => message.includes('over 262144 bytes'))).toBe(true);
  });

  it('a host abort cancels the call in the kernel and sends notifications/cancelled to the server', async () => {
    const log = join(dir, 'cancel.log');
    const manager = new McpManager();
    await manager.add({ name: 'fx', transport: { type: 'stdio', ...fixtureMcpStdioCommand() }, env: { MCP_FIXTURE_LOG: log } });
    const kernel = new InvocationKernel({ registry: new ToolRegistry(manager.toolsOf('fx').tools), workspace: new MemoryWorkspaceBackend(), sessionId: 's', emit: () => undefined });
    const controller = new AbortController();
    const pending = kernel.invoke({ toolName: 'mcp__fx__slow', args: { ms: 60_000 }, origin: 'host-direct', abortSignal: controller.signal });
    await expect.poll(() => { try { return readFileSync(log, 'utf8'); } catch { return ''; } }).toContain('call slow');
    controller.abort(new Error('user pressed stop'));
    const result = await pending;
    expect(result.errorKind).toMatchObject({ type: 'cancelled' });
    await expect.poll(() => readFileSync(log, 'utf8')).toContain('cancelled slow');
    // The connection is still usable.
    const echo = await kernel.invoke({ toolName: 'mcp__fx__echo', args: { text: 'after' }, origin: 'host-direct' });
    expect(echo.output).toBe('after');
    await manager.close();
  });
});
