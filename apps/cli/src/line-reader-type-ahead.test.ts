import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { LineReader } from './line-reader.js';

const terminal = (): PassThrough => Object.assign(new PassThrough(), { isTTY: true });

describe('answers typed ahead at a terminal', () => {
  it.each([
    ['two answers typed at once', 'y\ny\n'],
    ['three answers typed at once', 'y\ny\ny\n'],
    ['an answer and a blank line', 'n\n\n'],
  ])('%s: only the first answers the open question; the rest never answers the next one', async (_name, typed) => {
    const input = terminal();
    const reader = new LineReader(input);
    const first = reader.next();
    input.write(typed);
    expect(await first).toBe(typed.split('\n')[0]);
    const second = reader.next();
    input.write('n\n');
    expect(await second).toBe('n');
  });

  it('piped input keeps every line (scripts answer several questions at once)', async () => {
    const input = new PassThrough();
    const reader = new LineReader(input);
    const first = reader.next();
    input.write('y\nn\n');
    expect(await first).toBe('y');
    expect(await reader.next()).toBe('n');
  });
});
