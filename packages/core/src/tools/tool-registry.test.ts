import { describe, expect, it } from 'vitest';
import { CodeError } from '../errors/code-error.js';
import type { Tool } from './tool.js';
import { ToolRegistry } from './tool-registry.js';

const tool = (name: string, description = `the ${name} tool`): Tool => ({
  name,
  description,
  parameters: { type: 'object', properties: {} },
  execute: async () => ({ output: name }),
});

const configError = (run: () => unknown): CodeError => {
  try {
    run();
  } catch (error) {
    expect(CodeError.hasCode(error, 'CONFIG_ERROR')).toBe(true);
    return error as CodeError;
  }
  throw new Error('expected a CONFIG_ERROR');
};

describe('ToolRegistry', () => {
  it('registers tools from the constructor in order', () => {
    const registry = new ToolRegistry([tool('read'), tool('write'), tool('bash')]);
    expect(registry.names()).toEqual(['read', 'write', 'bash']);
    expect(registry.size).toBe(3);
    expect(registry.list().map((t) => t.name)).toEqual(['read', 'write', 'bash']);
  });

  it('starts empty', () => {
    const registry = new ToolRegistry();
    expect(registry.size).toBe(0);
    expect(registry.names()).toEqual([]);
    expect(registry.definitions()).toEqual([]);
  });

  it('gets and checks by name, null for unknown', () => {
    const read = tool('read');
    const registry = new ToolRegistry([read]);
    expect(registry.get('read')).toBe(read);
    expect(registry.has('read')).toBe(true);
    expect(registry.get('missing')).toBeNull();
    expect(registry.has('missing')).toBe(false);
    expect(registry.get('toString')).toBeNull();
  });

  it('rejects a duplicate name with CONFIG_ERROR and keeps the first tool', () => {
    const first = tool('read', 'first');
    const registry = new ToolRegistry([first]);
    const error = configError(() => registry.register(tool('read', 'second')));
    expect(error.message).toBe("a tool named 'read' is already registered");
    expect(error.details).toEqual({ tool: 'read' });
    expect(registry.get('read')).toBe(first);
    expect(registry.size).toBe(1);
    configError(() => new ToolRegistry([tool('a'), tool('a')]));
  });

  it('replaces a tool in place when asked', () => {
    const registry = new ToolRegistry([tool('read'), tool('write')]);
    const replacement = tool('read', 'replacement');
    registry.register(replacement, { replace: true });
    expect(registry.get('read')).toBe(replacement);
    expect(registry.names()).toEqual(['read', 'write']);
    registry.register(tool('new'), { replace: true });
    expect(registry.names()).toEqual(['read', 'write', 'new']);
    configError(() => registry.register(tool('new'), { replace: false }));
  });

  it.each(['', 'has space', 'dot.name', 'slash/name', 'a'.repeat(65), 'émoji', 'mcp__x__y!'])('rejects the invalid name %j and changes nothing', (name) => {
    const registry = new ToolRegistry([tool('read')]);
    const error = configError(() => registry.register(tool(name)));
    expect(error.message).toMatch(/invalid tool name/);
    expect(error.details).toEqual({ tool: name });
    expect(registry.names()).toEqual(['read']);
  });

  it.each(['a', 'A_b-1', 'mcp__github__create_issue', 'x'.repeat(64)])('accepts the valid name %j', (name) => {
    expect(new ToolRegistry([tool(name)]).has(name)).toBe(true);
  });

  it('unregisters and reports whether the tool was there', () => {
    const registry = new ToolRegistry([tool('read'), tool('write')]);
    expect(registry.unregister('read')).toBe(true);
    expect(registry.unregister('read')).toBe(false);
    expect(registry.names()).toEqual(['write']);
    registry.register(tool('read'));
    expect(registry.names()).toEqual(['write', 'read']);
  });

  it('gives model-facing definitions without execute or other fields', () => {
    const registry = new ToolRegistry([{ ...tool('read'), requires: ['read'], capabilities: () => ({ readOnly: true }) }]);
    expect(registry.definitions()).toEqual([{ name: 'read', description: 'the read tool', parameters: { type: 'object', properties: {} } }]);
  });

  it('returns copies from names() and list()', () => {
    const registry = new ToolRegistry([tool('read')]);
    registry.names().push('fake');
    registry.list().pop();
    expect(registry.names()).toEqual(['read']);
  });
});
