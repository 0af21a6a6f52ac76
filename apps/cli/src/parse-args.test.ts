import { describe, expect, it } from 'vitest';
import { CodeError } from '@a3s-lab/code';
import { parseCliArgs } from './parse-args.js';

const usageError = (argv: string[]): CodeError => {
  try {
    parseCliArgs(argv);
  } catch (error) {
    if (CodeError.isInstance(error)) return error;
    throw error;
  }
  throw new Error(`no error for ${argv.join(' ')}`);
};

describe('parseCliArgs', () => {
  it('parses run with every flag', () => {
    expect(
      parseCliArgs(['run', 'fix', 'the', 'tests', '--workspace', 'repo', '--config', 'a.acl', '--model', 'openai/gpt-4o', '--json', '-y', '--permission-mode', 'accept-edits', '--max-tool-rounds', '7']),
    ).toEqual({
      kind: 'run',
      options: { prompt: 'fix the tests', workspace: 'repo', config: 'a.acl', model: 'openai/gpt-4o', json: true, yes: true, permissionMode: 'accept-edits', maxToolRounds: 7 },
    });
    expect(parseCliArgs(['run', 'hi'])).toEqual({ kind: 'run', options: { prompt: 'hi', json: false, yes: false } });
    expect(parseCliArgs(['run', 'hi', '--json', '--compact', '-o', 'a.md'])).toEqual({ kind: 'run', options: { prompt: 'hi', json: true, yes: false, compact: true, output: 'a.md' } });
    expect(parseCliArgs(['run', 'hi', '--output-last-message', 'b.md'])).toEqual({ kind: 'run', options: { prompt: 'hi', json: false, yes: false, output: 'b.md' } });
  });

  it('parses demo, help and version', () => {
    expect(parseCliArgs(['demo', '--json'])).toEqual({ kind: 'demo', options: { json: true } });
    expect(parseCliArgs([])).toEqual({ kind: 'chat', args: [] });
    expect(parseCliArgs(['--continue', '--workspace', 'x'])).toEqual({ kind: 'chat', args: ['--continue', '--workspace', 'x'] });
    expect(parseCliArgs(['run', '--help'])).toEqual({ kind: 'help' });
    expect(parseCliArgs(['--version'])).toEqual({ kind: 'version' });
  });

  it.each([
    [['frobnicate'], "unknown command 'frobnicate'"],
    [['run'], 'run needs a prompt'],
    [['run', 'x', '--permission-mode', 'maybe'], 'default, accept-edits, plan, yolo'],
    [['run', 'x', '--max-tool-rounds', '0'], '--max-tool-rounds must be a positive integer'],
    [['run', 'x', '--max-tool-rounds', '2.5'], '--max-tool-rounds must be a positive integer'],
    [['run', 'x', '--model', 'gpt-4o'], "--model must be 'provider/model'"],
    [['run', 'x', '--bogus'], 'bogus'],
    [['demo', 'extra'], 'demo takes no arguments'],
    [['run', 'x', '-o', 'a', '--output-last-message', 'b'], 'the same option'],
    [['run', 'x', '--compact'], '--compact only applies to --json'],
  ])('rejects %j with a CONFIG_ERROR', (argv, message) => {
    const error = usageError(argv);
    expect(error.code).toBe('CONFIG_ERROR');
    expect(error.message).toContain(message);
  });
});
