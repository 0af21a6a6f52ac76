import { describe, expect, it } from 'vitest';
import { sanitizeTerminalText, stripAnsi } from './ansi.js';

describe('sanitizeTerminalText', () => {
  it('removes escape sequences whole and drops every other control character but tab and newline', () => {
    expect(sanitizeTerminalText('a\u001b[31mred\u001b[39m\tb\n\u001b]0;title\u0007c\u009b2Jd\u009d8;;http://x\u009ce\r\u0000\u007f')).toBe('ared\tb\ncde');
    expect(stripAnsi('\u001b[1mbold\u001b[22m')).toBe('bold');
  });

  it('stays linear on a flood of unterminated sequence introducers (tool output is hostile input)', () => {
    // Quadratic scanning here would hold the terminal for minutes; the test times out instead.
    const flood = '\u009d'.repeat(100_000) + '\u001b]x\u009d'.repeat(30_000) + '\u009b0'.repeat(30_000);
    expect(sanitizeTerminalText(`ok${flood}\nend`)).toBe(`ok${'x'.repeat(30_000)}${'0'.repeat(30_000)}\nend`);
  }, 20_000);
});
