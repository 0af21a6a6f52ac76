import { describe, expect, it } from 'vitest';
import { FIXTURE_PNG_BASE64 } from '@a3s-lab/code-testing/mcp';
import { toToolOutput } from './mcp-call-result.js';

const origin = { server: 'fx', tool: 't' };

describe('toToolOutput', () => {
  it('joins text, attaches images, inlines text resources and describes links', () => {
    const output = toToolOutput(
      {
        content: [
          { type: 'text', text: 'first' },
          { type: 'image', data: FIXTURE_PNG_BASE64, mimeType: 'image/png' },
          { type: 'resource', resource: { uri: 'file:///a.md', mimeType: 'text/markdown', text: '# A' } },
          { type: 'resource', resource: { uri: 'file:///b.bin', blob: 'AAAA' } },
          { type: 'resource_link', uri: 'file:///c.md', name: 'c.md' },
        ],
      },
      origin,
    );
    expect(output.exitCode).toBe(0);
    expect(output.output.split('\n')).toEqual(['first', '[image image/png, 68 bytes, attached]', '[resource file:///a.md (text/markdown)]', '# A', '[resource file:///b.bin: binary, not shown]', '[resource link c.md: file:///c.md]']);
    expect(output.attachments).toHaveLength(1);
    expect(output.attachments?.[0]?.mediaType).toBe('image/png');
    expect(Buffer.from(output.attachments![0]!.data).toString('base64')).toBe(FIXTURE_PNG_BASE64);
    expect(output.metadata).toEqual({ mcp: { server: 'fx', tool: 't', is_error: false } });
  });

  it('turns isError into a failed result (not an exception), keeping the text', () => {
    const output = toToolOutput({ content: [{ type: 'text', text: 'archived' }], isError: true }, origin);
    expect(output).toMatchObject({ output: 'archived', exitCode: 1, metadata: { mcp: { is_error: true } } });
  });

  it('uses structuredContent as the output when there is no content, and always keeps it in metadata', () => {
    expect(toToolOutput({ content: [], structuredContent: { sum: 3 } }, origin)).toMatchObject({ output: '{\n  "sum": 3\n}', metadata: { mcp: { structured_content: { sum: 3 } } } });
    expect(toToolOutput({ content: [{ type: 'text', text: '3' }], structuredContent: { sum: 3 } }, origin).output).toBe('3');
  });
});
