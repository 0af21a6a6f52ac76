import { describe, expect, it } from 'vitest';
import { MAX_TOOL_NAME_LENGTH, assignMcpToolNames, mcpToolName } from './mcp-tool-name.js';

describe('mcpToolName', () => {
  it('is mcp__<server>__<tool> when that fits and is valid', () => {
    expect(mcpToolName('github', 'create_issue')).toBe('mcp__github__create_issue');
    expect(mcpToolName('a', 'x'.repeat(56))).toBe(`mcp__a__${'x'.repeat(56)}`);
  });

  it('shortens a long name deterministically to 64 characters with a hash of the full name', () => {
    const long = 'summarise_every_open_pull_request_of_the_repository_with_reviewers';
    const name = mcpToolName('github', long);
    expect(name).toHaveLength(MAX_TOOL_NAME_LENGTH);
    expect(name).toMatch(/^mcp__github__summarise_every_open_pull_request_of_the_r_[0-9a-f]{8}$/);
    expect(mcpToolName('github', long)).toBe(name);
    // Same 64-character prefix, different tails: different names.
    expect(mcpToolName('github', `${long}_and_more`)).not.toBe(name);
  });

  it('replaces characters providers refuse, and keeps names that differ only there apart', () => {
    const dotted = mcpToolName('fs', 'read.file');
    const slashed = mcpToolName('fs', 'read/file');
    expect(dotted).toMatch(/^mcp__fs__read_file_[0-9a-f]{8}$/);
    expect(slashed).toMatch(/^mcp__fs__read_file_[0-9a-f]{8}$/);
    expect(dotted).not.toBe(slashed);
    expect(mcpToolName('fs', 'read_file')).toBe('mcp__fs__read_file');
    for (const name of [dotted, slashed, mcpToolName('fs', 'ファイル'), mcpToolName('fs', '')]) expect(name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
  });
});

describe('assignMcpToolNames', () => {
  it('keeps the first of two colliding tools and reports the other', () => {
    const hashed = mcpToolName('s', 'a.b');
    const literal = hashed.slice('mcp__s__'.length);
    const naming = assignMcpToolNames('s', ['a.b', literal, 'c']);
    expect([...naming.names]).toEqual([[hashed, 'a.b'], ['mcp__s__c', 'c']]);
    expect(naming.collisions).toEqual([literal]);
  });
});
