import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { CodeError } from '@a3s-lab/code';
import { createStyle } from './ansi.js';
import type { CliIo } from './cli-io.js';
import { promptWithStdin, readStdin } from './stdin-prompt.js';

const ioWith = (stdin: PassThrough & { isTTY?: boolean }): { io: CliIo; stderr: () => string } => {
  const stderr = new PassThrough();
  let text = '';
  stderr.on('data', (c: Buffer) => (text += c.toString('utf8')));
  return { io: { stdin, stdout: new PassThrough(), stderr, env: {}, cwd: '/' }, stderr: () => text };
};
const style = createStyle(false);

describe('promptWithStdin', () => {
  it('run - takes the whole of stdin, trimmed; an empty stdin is a usage error', async () => {
    const stdin = new PassThrough();
    stdin.end('  the prompt\nsecond line\n\n');
    expect(await promptWithStdin('-', ioWith(stdin).io, style)).toBe('the prompt\nsecond line');
    const empty = new PassThrough();
    empty.end('\n  \n');
    const error = await promptWithStdin('-', ioWith(empty).io, style).catch((e: unknown) => e);
    expect(CodeError.isInstance(error) && error.code === 'CONFIG_ERROR' && error.details['usage'] === true).toBe(true);
  });

  it('appends a piped stdin to a prompt argument in a <stdin> block, read to its end after a slow start', async () => {
    const stdin = new PassThrough();
    const prompt = promptWithStdin('summarize', ioWith(stdin).io, style, 2_000);
    setTimeout(() => stdin.write('line one\n'), 50);
    setTimeout(() => stdin.end('line two\n\n'), 100);
    expect(await prompt).toBe('summarize\n\n<stdin>\nline one\nline two\n</stdin>');
  });

  it('a stdin already read to its end resolves at once', async () => {
    const stdin = new PassThrough();
    stdin.end('x');
    expect((await readStdin(stdin)).text).toBe('x');
    expect(await readStdin(stdin)).toEqual({ text: '', timedOut: false });
  });

  it('leaves a terminal stdin alone', async () => {
    const stdin = Object.assign(new PassThrough(), { isTTY: true });
    expect(await promptWithStdin('hello', ioWith(stdin).io, style, 10)).toBe('hello');
    // Nothing was consumed: a confirmation question can still read it.
    stdin.end('y\n');
    expect((await readStdin(stdin)).text).toBe('y\n');
  });

  it('runs without stdin when nothing arrives in time, and says so on stderr', async () => {
    const stdin = new PassThrough();
    const { io, stderr } = ioWith(stdin);
    expect(await promptWithStdin('hello', io, style, 30)).toBe('hello');
    expect(stderr()).toContain('no data on stdin after 0.03s; running without it');
    expect(stdin.listenerCount('data')).toBe(0);
  });
});
