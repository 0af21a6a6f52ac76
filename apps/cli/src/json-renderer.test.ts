import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createAgentEvent } from '@a3s-lab/code-core';
import { JsonRenderer } from './json-renderer.js';

function capture() {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (c: Buffer) => (text += c.toString('utf8')));
  return { stream, text: () => text };
}

describe('JsonRenderer', () => {
  it('prints one envelope per line even for a payload JSON cannot hold (a BigInt, a cycle from a custom tool)', () => {
    const stdout = capture();
    const stderr = capture();
    const renderer = new JsonRenderer(stdout.stream, stderr.stream);
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic['self'] = cyclic;
    renderer.event(createAgentEvent('tool_end', { tool_id: 't', tool_name: 'custom', exit_code: 0, output: 'ok', duration_ms: 1, metadata: { n: 12n, cyclic } }));
    renderer.event(createAgentEvent('agent_end', { text: 'done', usage: {} }));
    const lines = stdout.text().trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    const first = JSON.parse(lines[0] as string) as { type: string; payload: { metadata: { n: string; cyclic: { a: number; self: string } } } };
    expect(first.type).toBe('tool_end');
    expect(first.payload.metadata.n).toBe('12');
    expect(first.payload.metadata.cyclic).toEqual({ a: 1, self: '[Circular]' });
    expect(JSON.parse(lines[1] as string)).toMatchObject({ version: 1, type: 'agent_end' });
  });

  it('keeps U+2028 and U+2029 escaped, so even a splitlines() reader sees one object per line', () => {
    const stdout = capture();
    const renderer = new JsonRenderer(stdout.stream, capture().stream);
    const text = 'one\u2028two\u2029three\r\nfour';
    renderer.event(createAgentEvent('tool_end', { tool_id: 't', tool_name: 'bash', exit_code: 0, output: text, duration_ms: 1 }));
    renderer.event(createAgentEvent('agent_end', { text, usage: {} }));
    const lines = stdout.text().split(/\r\n|[\n\r\u2028\u2029\u0085\v\f\u001c-\u001e]/).filter((line) => line !== '');
    expect(lines).toHaveLength(2);
    expect((JSON.parse(lines[1] as string) as { payload: { text: string } }).payload.text).toBe(text);
  });
});
