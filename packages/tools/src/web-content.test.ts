import { describe, expect, it } from 'vitest';
import { contentKind, decodeBody, parseContentType, stripUrlsInText } from './web-content.js';

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

describe('web content handling', () => {
  it('parses content types and charsets', () => {
    expect(parseContentType('Text/HTML; Charset="ISO-8859-1"')).toEqual({ mediaType: 'text/html', charset: 'iso-8859-1' });
    expect(parseContentType(undefined)).toEqual({ mediaType: '', charset: undefined });
  });

  it('classifies declared types and sniffs missing or generic ones', () => {
    expect(contentKind('application/xhtml+xml', bytes(''))).toBe('html');
    expect(contentKind('application/vnd.api+json', bytes('{}'))).toBe('text');
    expect(contentKind('image/png', bytes('x'))).toBe('binary');
    expect(contentKind('', bytes('%PDF-1.7 ...'))).toBe('pdf');
    expect(contentKind('application/octet-stream', new Uint8Array([1, 0, 2]))).toBe('binary');
    expect(contentKind('', bytes('  <!DOCTYPE html><p>x'))).toBe('html');
    expect(contentKind('', bytes('plain words'))).toBe('text');
  });

  it('decodes by header charset, then meta charset, then UTF-8; unknown labels fall back', () => {
    expect(decodeBody(new Uint8Array([0x63, 0x61, 0x66, 0xe9]), 'latin1', 'text')).toBe('café');
    expect(decodeBody(new Uint8Array([...bytes('<meta charset="iso-8859-1"><p>'), 0xe9]), undefined, 'html')).toContain('<p>é');
    expect(decodeBody(bytes('ok ✓'), 'x-no-such-charset', 'text')).toBe('ok ✓');
  });

  it('rewrites URLs with queries inside text', () => {
    const strip = (url: string): string => url.replace(/token=[^&]*&?/, '');
    expect(stripUrlsInText('see https://x.dev/a?token=1&b=2 and (https://y.dev/?q=1)', strip)).toBe('see https://x.dev/a?b=2 and (https://y.dev/?q=1)');
  });
});
