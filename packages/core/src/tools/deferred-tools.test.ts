import { describe, expect, it } from 'vitest';
import { DeferredTools, TOOL_SEARCH_NAME } from './deferred-tools.js';
import { ToolRegistry } from './tool-registry.js';
import type { AnyTool } from './tool-registry.js';

const tool = (name: string, description = `Does ${name}. More detail that the catalogue leaves out.`, size = 0): AnyTool => ({
  name,
  description,
  parameters: { type: 'object', properties: { pad: { type: 'string', description: 'x'.repeat(size) } } },
  execute: async () => ({ output: `${name} ran` }),
});

const context = { toolId: 't1', toolName: TOOL_SEARCH_NAME } as never;
const search = async (registry: ToolRegistry, query: string, limit?: number): Promise<string> => {
  const found = registry.get(TOOL_SEARCH_NAME);
  if (found === null) throw new Error('no tool_search');
  return (await found.execute({ query, ...(limit === undefined ? {} : { limit }) }, context)).output;
};
const names = (definitions: readonly { name: string }[]): string[] => definitions.map((definition) => definition.name);

describe('DeferredTools', () => {
  it('defers MCP tools only past the threshold, and only MCP tools', () => {
    const registry = new ToolRegistry([tool('read'), tool('mcp__gh__list_issues', undefined, 4000), tool('mcp__gh__get_issue', undefined, 4000)]);
    // ~2,000 tokens of MCP definitions against a 10,000-token window: over 0.1, under 0.5.
    expect(names(new DeferredTools(registry, { enabled: true, threshold: 0.5, contextTokens: 10_000 }).requestTools())).toEqual(['read', 'mcp__gh__list_issues', 'mcp__gh__get_issue']);
    expect(registry.has(TOOL_SEARCH_NAME)).toBe(false);
    const deferred = new DeferredTools(registry, { enabled: true, threshold: 0.1, contextTokens: 10_000 });
    expect(names(deferred.requestTools())).toEqual(['read', TOOL_SEARCH_NAME]);
    expect(registry.has(TOOL_SEARCH_NAME)).toBe(true);
    expect(registry.has('mcp__gh__list_issues')).toBe(true);
    expect(names(new DeferredTools(new ToolRegistry(registry.list().filter((t) => t.name !== TOOL_SEARCH_NAME)), { enabled: false, threshold: 0, contextTokens: 10_000 }).requestTools())).toEqual(['read', 'mcp__gh__list_issues', 'mcp__gh__get_issue']);
  });

  it('describes the deferred tools per server in one line each', () => {
    const registry = new ToolRegistry([tool('mcp__a__x', 'Lists x. Long tail.\n(MCP tool x of server a)'), tool('mcp__b__y', 'y'.repeat(200))]);
    const definitions = new DeferredTools(registry, { enabled: true, threshold: 0, contextTokens: 1000 }).requestTools();
    const catalogue = definitions.find((definition) => definition.name === TOOL_SEARCH_NAME)?.description ?? '';
    expect(catalogue).toContain('server a:\nx: Lists x.');
    expect(catalogue).not.toContain('Long tail');
    expect(catalogue).toContain(`server b:\ny: ${'y'.repeat(79)}…`);
  });

  it('loads by exact names or keywords; loaded tools join the following requests; restore re-loads from a conversation', async () => {
    const registry = new ToolRegistry([tool('mcp__gh__list_issues', 'Lists issues.'), tool('mcp__gh__merge_pull_request', 'Merges a pull request.'), tool('mcp__gh__close_issue', 'Closes an issue.')]);
    const deferred = new DeferredTools(registry, { enabled: true, threshold: 0, contextTokens: 1000 });
    expect(names(deferred.requestTools())).toEqual([TOOL_SEARCH_NAME]);
    expect(await search(registry, 'select:mcp__gh__list_issues,close_issue')).toContain('Loaded 2 tool(s)');
    expect(names(deferred.requestTools())).toEqual(['mcp__gh__list_issues', 'mcp__gh__close_issue', TOOL_SEARCH_NAME]);
    const merged = await search(registry, 'merge pull', 1);
    expect(merged).toContain('- mcp__gh__merge_pull_request: Merges a pull request.');
    expect(await search(registry, 'nothing-like-it')).toContain('No MCP tool matches');
    // Everything loaded: no deferral left, tool_search leaves the surface.
    expect(names(deferred.requestTools())).toEqual(['mcp__gh__list_issues', 'mcp__gh__merge_pull_request', 'mcp__gh__close_issue']);
    expect(registry.has(TOOL_SEARCH_NAME)).toBe(false);

    const again = new DeferredTools(registry, { enabled: true, threshold: 0, contextTokens: 1000 });
    again.restore([
      { role: 'assistant', content: [{ type: 'tool_call', id: 'c1', name: TOOL_SEARCH_NAME, input: { query: 'merge' } }] },
      { role: 'user', content: [{ type: 'tool_result', toolCallId: 'c1', content: merged, isError: false }] },
      { role: 'assistant', content: [{ type: 'tool_call', id: 'c2', name: 'mcp__gh__close_issue', input: {} }] },
    ]);
    expect(again.loaded().sort()).toEqual(['mcp__gh__close_issue', 'mcp__gh__merge_pull_request']);
    expect(names(again.requestTools())).toEqual(['mcp__gh__merge_pull_request', 'mcp__gh__close_issue', TOOL_SEARCH_NAME]);
  });

  it('hands out the same definition objects request after request until a tool or the catalogue changes', async () => {
    const read = tool('read');
    const registry = new ToolRegistry([read, tool('mcp__gh__list_issues', 'Lists issues.'), tool('mcp__gh__close_issue', 'Closes an issue.')]);
    const deferred = new DeferredTools(registry, { enabled: true, threshold: 0, contextTokens: 1000 });
    const first = deferred.requestTools();
    const second = deferred.requestTools();
    expect(second).not.toBe(first);
    second.forEach((definition, index) => expect(definition).toBe(first[index]));
    // A tool registered again with another description gets a new definition; the others stay.
    registry.unregister('read');
    registry.register({ ...read, description: 'Reads, differently.' });
    const third = deferred.requestTools();
    expect(third.find((d) => d.name === 'read')).toMatchObject({ description: 'Reads, differently.' });
    expect(third.find((d) => d.name === TOOL_SEARCH_NAME)).toBe(first.find((d) => d.name === TOOL_SEARCH_NAME));
    // Loading a deferred tool changes the catalogue: a new tool_search definition.
    await search(registry, 'select:mcp__gh__list_issues');
    const fourth = deferred.requestTools();
    expect(fourth.find((d) => d.name === TOOL_SEARCH_NAME)).not.toBe(first.find((d) => d.name === TOOL_SEARCH_NAME));
    expect(fourth.find((d) => d.name === TOOL_SEARCH_NAME)?.description).not.toContain('list_issues');
  });

  it("leaves a host's own tool_search alone (and defers nothing)", () => {
    const own = tool(TOOL_SEARCH_NAME, 'The host tool.');
    const registry = new ToolRegistry([own, tool('mcp__a__x')]);
    expect(names(new DeferredTools(registry, { enabled: true, threshold: 0, contextTokens: 1000 }).requestTools())).toEqual([TOOL_SEARCH_NAME, 'mcp__a__x']);
    expect(registry.get(TOOL_SEARCH_NAME)).toBe(own);
  });
});
