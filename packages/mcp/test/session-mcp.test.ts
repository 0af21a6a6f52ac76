// SessionMcp and McpManager against the real fixture MCP server, with the tools called through a
// real InvocationKernel: pagination, tools/list_changed, schema dialects, naming, results,
// annotations, reconnects.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { InvocationKernel, ToolRegistry } from '@a3s-lab/code-core/kernel';
import type { AgentEvent, ToolSurface } from '@a3s-lab/code-core';
import { MemoryWorkspaceBackend } from '@a3s-lab/code-core/testing';
import { FIXTURE_LONG_TOOL_NAME, fixtureMcpStdioCommand, startFixtureMcpHttpServer } from '@a3s-lab/code-testing/mcp';
import type { FixtureMcpHttpServer } from '@a3s-lab/code-testing/mcp';
import { McpManager, SessionMcp, mcpToolName } from '../src/index.js';

function kernelSession(): { registry: ToolRegistry; kernel: InvocationKernel; surface: ToolSurface; events: AgentEvent[] } {
  const registry = new ToolRegistry();
  const events: AgentEvent[] = [];
  const kernel = new InvocationKernel({ registry, workspace: new MemoryWorkspaceBackend(), sessionId: 's', emit: (event) => events.push(event) });
  const surface: ToolSurface = { sessionId: 's', register: (tool) => registry.register(tool), unregister: (name) => registry.unregister(name), has: (name) => registry.has(name) };
  return { registry, kernel, surface, events };
}

let http: FixtureMcpHttpServer;
let paged: FixtureMcpHttpServer;
beforeAll(async () => {
  http = await startFixtureMcpHttpServer();
  paged = await startFixtureMcpHttpServer({ pageSize: 2 });
});
afterAll(async () => {
  await http.close();
  await paged.close();
});

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

describe('SessionMcp over the fixture server', () => {
  it('follows tools/list pagination to the last page', async () => {
    const one = kernelSession();
    const mcp = new SessionMcp(one.surface);
    closers.push(() => mcp.close());
    const unpaged = kernelSession();
    const reference = new SessionMcp(unpaged.surface);
    closers.push(() => reference.close());
    const count = await mcp.addMcp({ name: 'paged', transport: { type: 'http', url: paged.url } });
    expect(count).toBe(await reference.addMcp({ name: 'paged', transport: { type: 'http', url: http.url } }));
    expect(count).toBeGreaterThan(6);
    expect(one.registry.names()).toEqual(unpaged.registry.names());
  });

  it('validates a 2020-12 input schema in the kernel and calls the tool with valid input', async () => {
    const { kernel, surface } = kernelSession();
    const mcp = new SessionMcp(surface);
    closers.push(() => mcp.close());
    await mcp.addMcp({ name: 'fx', transport: { type: 'http', url: http.url } });
    const ok = await kernel.invoke({ toolName: 'mcp__fx__strict_pair', args: { pair: ['a', 2] }, origin: 'host-direct' });
    expect(ok).toMatchObject({ exitCode: 0, output: '["a",2]' });
    const bad = await kernel.invoke({ toolName: 'mcp__fx__strict_pair', args: { pair: ['a', 2, 3] }, origin: 'host-direct' });
    expect(bad.errorKind).toMatchObject({ type: 'invalid_argument' });
  });

  it('names a long tool within 64 characters and calls it under that name', async () => {
    const { kernel, surface, registry } = kernelSession();
    const mcp = new SessionMcp(surface);
    closers.push(() => mcp.close());
    await mcp.addMcp({ name: 'fx', transport: { type: 'http', url: http.url } });
    const name = mcpToolName('fx', FIXTURE_LONG_TOOL_NAME);
    expect(name.length).toBeLessThanOrEqual(64);
    expect(registry.has(name)).toBe(true);
    expect(await kernel.invoke({ toolName: name, args: {}, origin: 'host-direct' })).toMatchObject({ exitCode: 0, output: 'long name ok' });
  });

  it('maps images to attachments and isError to a failed result; annotations to capabilities', async () => {
    const { kernel, surface, registry } = kernelSession();
    const mcp = new SessionMcp(surface);
    closers.push(() => mcp.close());
    await mcp.addMcp({ name: 'fx', transport: { type: 'http', url: http.url } });
    const image = await kernel.invoke({ toolName: 'mcp__fx__image', args: {}, origin: 'host-direct' });
    expect(image.attachments?.[0]?.mediaType).toBe('image/png');
    const failed = await kernel.invoke({ toolName: 'mcp__fx__fail', args: {}, origin: 'host-direct' });
    expect(failed).toMatchObject({ exitCode: 1, output: 'the repository is archived', metadata: { mcp: { is_error: true } } });
    expect(kernel.capabilities('mcp__fx__echo', { text: 'x' })).toMatchObject({ readOnly: true, idempotent: true });
    // No annotations: mutating.
    expect(kernel.capabilities('mcp__fx__write_note', { text: 'x' })).toMatchObject({ readOnly: false, idempotent: false });
    expect(registry.get('mcp__fx__echo')?.description).toContain("MCP tool 'echo' of server 'fx'");
  });

  it('applies notifications/tools/list_changed to the surface', async () => {
    const { kernel, surface, registry } = kernelSession();
    const mcp = new SessionMcp(surface);
    closers.push(() => mcp.close());
    // `auto`: a tool added after the first listing is accepted at once (issue 35: the default,
    // `manual`, holds it until the host accepts it; see mcp-tool-pinning.test.ts).
    await mcp.addMcp({ name: 'fx', transport: { type: 'stdio', ...fixtureMcpStdioCommand() }, acceptToolChanges: 'auto' });
    expect(registry.has('mcp__fx__fresh')).toBe(false);
    expect((await kernel.invoke({ toolName: 'mcp__fx__add_tool', args: { name: 'fresh' }, origin: 'host-direct' })).exitCode).toBe(0);
    await expect.poll(() => registry.has('mcp__fx__fresh')).toBe(true);
    expect(await kernel.invoke({ toolName: 'mcp__fx__fresh', args: {}, origin: 'host-direct' })).toMatchObject({ exitCode: 0, output: 'fresh ran' });
    expect(mcp.mcps()[0]?.toolCount).toBe(registry.names().length);
  });

  it('a global server is shadowed by a session server and restored when it is removed', async () => {
    const global = new McpManager();
    closers.push(() => global.close());
    await global.addAll([{ name: 'fx', transport: { type: 'http', url: http.url } }]);
    const a = kernelSession();
    const b = kernelSession();
    const first = new SessionMcp(a.surface, global);
    const second = new SessionMcp(b.surface, global);
    closers.push(() => first.close(), () => second.close());
    const inherited = a.registry.get('mcp__fx__echo');
    expect(inherited).not.toBeNull();
    // Sessions share the global tool objects (and so the kernel's compiled validators).
    expect(b.registry.get('mcp__fx__echo')).toBe(inherited);
    await first.addMcp({ name: 'fx', transport: { type: 'stdio', ...fixtureMcpStdioCommand() } });
    expect(a.registry.get('mcp__fx__echo')).not.toBe(inherited);
    expect(a.registry.has('mcp__fx__process_info')).toBe(true);
    expect(b.registry.has('mcp__fx__process_info')).toBe(false);
    expect(await first.removeMcp('fx')).toBe(true);
    expect(a.registry.get('mcp__fx__echo')).toBe(inherited);
    expect(global.statuses()).toEqual([expect.objectContaining({ name: 'fx', connected: true })]);
  });

  it('a tool name already taken on the surface by another source is left out and reported', async () => {
    const { surface, registry } = kernelSession();
    registry.register({ name: 'mcp__fx__echo', description: 'host tool', parameters: { type: 'object' }, execute: async () => ({ output: 'host' }) });
    const mcp = new SessionMcp(surface);
    closers.push(() => mcp.close());
    await mcp.addMcp({ name: 'fx', transport: { type: 'http', url: http.url } });
    expect(registry.get('mcp__fx__echo')?.description).toBe('host tool');
    expect(mcp.mcps()[0]?.error).toContain('mcp__fx__echo: a tool of that name is already on the session');
  });

  it('fails fast with MCP_ERROR once a dropped server cannot be reconnected', async () => {
    const server = await startFixtureMcpHttpServer();
    const { kernel, surface } = kernelSession();
    const mcp = new SessionMcp(surface);
    closers.push(() => mcp.close());
    await mcp.addMcp({ name: 'fx', transport: { type: 'http', url: server.url }, timeoutMs: 3000 });
    await server.close();
    const first = await kernel.invoke({ toolName: 'mcp__fx__echo', args: { text: 'x' }, origin: 'host-direct' });
    expect(first.exitCode).toBe(1);
    expect(first.metadata?.['mcp']).toMatchObject({ error_code: 'MCP_ERROR', reason: 'disconnected' });
    expect(first.errorKind).toMatchObject({ type: 'transport' });
    expect(mcp.mcps()[0]).toMatchObject({ connected: false, error: expect.stringContaining('disconnected') as unknown });
    // The next call tries to reconnect once; the server is gone, so it fails as unavailable...
    const second = await kernel.invoke({ toolName: 'mcp__fx__echo', args: { text: 'x' }, origin: 'host-direct' });
    expect(second.metadata?.['mcp']).toMatchObject({ error_code: 'MCP_ERROR', reason: 'unavailable' });
    expect(second.output).toContain('reconnecting failed');
    // ...and later calls fail fast without trying again.
    const third = await kernel.invoke({ toolName: 'mcp__fx__echo', args: { text: 'x' }, origin: 'host-direct' });
    expect(third.metadata?.['mcp']).toMatchObject({ error_code: 'MCP_ERROR', reason: 'unavailable' });
    expect(third.output).toContain('remove it and add it again');
  });
});
