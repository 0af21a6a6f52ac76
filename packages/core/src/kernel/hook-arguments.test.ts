import { describe, expect, it } from 'vitest';
import { makeKernel, writeTool } from '../../test/kernel-kit.js';
import { HookRegistry } from '../hooks/hook-registry.js';
import type { HookResult } from '../hooks/hook-registry.js';
import { DefaultSecurityProvider } from '../security/security-provider.js';

const SECRET = 'sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123';
const KNOWN = 'db-password-known-value-42';
const CONTENT = `export const key = "${SECRET}";\nexport const db = "${KNOWN}";\n`;

type Handler = (payload: Record<string, unknown>) => HookResult;
const argsOf = (payload: Record<string, unknown>): Record<string, unknown> => payload['args'] as Record<string, unknown>;

// Hooks that normalise one field, as hosts write them. Each sees REDACTED arguments.
const NORMALISERS: Array<[string, Handler]> = [
  ['returns all arguments with one field changed', (p) => ({ action: 'continue', modified: { args: { ...argsOf(p), path: String(argsOf(p)['path']).replace(/^\.\//, '') } } })],
  ['returns a patch of one field', (p) => ({ action: 'continue', modified: { argsPatch: { path: String(argsOf(p)['path']).replace(/^\.\//, '') } } })],
  ['returns all arguments (re-serialised) plus a new field', (p) => ({ action: 'continue', modified: { args: JSON.parse(JSON.stringify({ ...argsOf(p), path: 'src/a.ts' })) as unknown } })],
];

describe('pre-hooks modifying redacted arguments', () => {
  it.each(NORMALISERS)('a hook that %s leaves the real content intact', async (_name, handler) => {
    const hooks = new HookRegistry({ security: new DefaultSecurityProvider({ secretValues: [KNOWN] }) });
    const seen: unknown[] = [];
    hooks.register('normalise', 'pre_tool_use', null, null, (event) => {
      seen.push(event.payload);
      return handler(event.payload as Record<string, unknown>);
    });
    const write = writeTool();
    const { kernel, workspace } = makeKernel([write], { hooks, security: new DefaultSecurityProvider({ secretValues: [KNOWN] }) });
    const result = await kernel.invoke({ toolName: 'write', args: { path: './src/a.ts', content: CONTENT }, origin: 'agent' });
    expect(result.exitCode, result.output).toBe(0);
    // The hook never saw the secrets...
    expect(JSON.stringify(seen)).not.toContain(SECRET);
    expect(JSON.stringify(seen)).not.toContain(KNOWN);
    // ...and the file holds them, not the marker.
    expect(write.calls[0]?.['path']).toBe('src/a.ts');
    expect(write.calls[0]?.['content']).toBe(CONTENT);
    const file = await workspace.readFile({ path: 'src/a.ts' });
    expect(Buffer.from(file!.content).toString('utf8')).toBe(CONTENT);
  });

  it.each<[string, Handler]>([
    ['trims redacted content', (p) => ({ action: 'continue', modified: { args: { ...argsOf(p), content: String(argsOf(p)['content']).trim() } } })],
    ['patches content built from redacted text', (p) => ({ action: 'continue', modified: { argsPatch: { content: `// header\n${String(argsOf(p)['content'])}` } } })],
  ])('a hook that %s is refused instead of writing the marker', async (_name, handler) => {
    const hooks = new HookRegistry({ security: new DefaultSecurityProvider() });
    hooks.register('rewrite', 'pre_tool_use', null, null, (event) => handler(event.payload as Record<string, unknown>));
    const write = writeTool();
    const { kernel } = makeKernel([write], { hooks });
    const result = await kernel.invoke({ toolName: 'write', args: { path: 'src/a.ts', content: CONTENT }, origin: 'agent' });
    expect(result.errorKind?.type).toBe('hook_denied');
    expect(write.calls).toEqual([]);
  });
});
