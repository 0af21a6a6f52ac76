import { describe, expect, it } from 'vitest';
import { MAX_MCP_DESCRIPTION_LENGTH, boundDescription, capabilitiesFromAnnotations, unusableSchemaReason } from './mcp-tool.js';

describe('MCP tool adaptation', () => {
  it('bounds descriptions and strips control characters (untrusted server text)', () => {
    const long = boundDescription(`evil\u001b[2J${'x'.repeat(MAX_MCP_DESCRIPTION_LENGTH * 2)}`, 'gh', 'tool');
    expect(long).not.toContain('\u001b');
    expect(long.length).toBeLessThan(MAX_MCP_DESCRIPTION_LENGTH + 80);
    expect(long).toContain('[description cut]');
    expect(boundDescription(undefined, 'gh', 'tool')).toBe("MCP tool 'tool' of server 'gh'.");
  });

  it('maps annotations to capabilities; no annotations means mutating', () => {
    expect(capabilitiesFromAnnotations(undefined)).toMatchObject({ readOnly: false, idempotent: false, cancellationSafe: false, maxParallelism: 1 });
    expect(capabilitiesFromAnnotations({ readOnlyHint: true })).toMatchObject({ readOnly: true, idempotent: true, cancellationSafe: true });
    expect(capabilitiesFromAnnotations({ idempotentHint: true })).toMatchObject({ readOnly: false, idempotent: true });
    expect(capabilitiesFromAnnotations({ idempotentHint: true, destructiveHint: true })).toMatchObject({ readOnly: false, idempotent: false });
  });

  it('refuses input schemas that are not object schemas or are too large', () => {
    expect(unusableSchemaReason({ name: 't', inputSchema: { type: 'object' } })).toBeNull();
    expect(unusableSchemaReason({ name: 't', inputSchema: { type: 'string' } as never })).toContain('not an object schema');
    expect(unusableSchemaReason({ name: 't', inputSchema: { type: 'object', description: 'x'.repeat(70_000) } })).toContain('over');
  });

  it('refuses input schemas with a pattern that can backtrack without bound (issue 35)', () => {
    const reason = unusableSchemaReason({ name: 't', inputSchema: { type: 'object', properties: { text: { type: 'string', pattern: '^(a+)+$' } } } });
    expect(reason).toContain('pattern "^(a+)+$" at /properties/text/pattern is refused');
    expect(unusableSchemaReason({ name: 't', inputSchema: { type: 'object', properties: { text: { type: 'string', pattern: '^[a-z]+$' } } } })).toBeNull();
  });
});
