import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createAgentEvent } from '@a3s-lab/code-core';
import { createStyle, revealInvisible } from './ansi.js';
import { ConfirmationHandler } from './confirmation-handler.js';
import { LineReader } from './line-reader.js';

// What a human approves must be what runs: bidi overrides and zero-width characters in a command,
// a path or a diff are shown as visible tags in the question, never passed to the terminal.
const INVISIBLE: Array<[string, string]> = [
  ['RIGHT-TO-LEFT OVERRIDE', '\u202E'],
  ['LEFT-TO-RIGHT ISOLATE', '\u2066'],
  ['POP DIRECTIONAL ISOLATE', '\u2069'],
  ['ZERO WIDTH SPACE', '\u200B'],
  ['ZERO WIDTH JOINER', '\u200D'],
  ['WORD JOINER', '\u2060'],
  ['BYTE ORDER MARK', '\uFEFF'],
  ['NO-BREAK SPACE', '\u00A0'],
  ['RIGHT-TO-LEFT MARK', '\u200F'],
  ['HANGUL FILLER', '\u3164'],
];

async function question(toolName: string, args: Record<string, unknown>): Promise<string> {
  const stdin = new PassThrough();
  const prompt = new PassThrough();
  let shown = '';
  prompt.on('data', (chunk: Buffer) => (shown += chunk.toString('utf8')));
  const handler = new ConfirmationHandler({ session: { confirmToolUse: async () => true }, mode: 'interactive', reader: new LineReader(stdin), prompt, style: createStyle(false) });
  handler.handle(createAgentEvent('confirmation_required', { tool_id: 't1', tool_name: toolName, args, timeout_ms: 1000 }));
  stdin.write('n\n');
  await handler.idle();
  return shown;
}

describe('invisible characters in confirmation prompts', () => {
  it.each(INVISIBLE)('%s in a bash command is shown as a tag', async (_name, char) => {
    const shown = await question('bash', { command: `echo safe ${char}; rm -rf /tmp/x ${char}#` });
    expect(shown).not.toContain(char);
    expect(shown).toContain(`<U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}>`);
  });

  it.each(INVISIBLE)('%s in an edit preview and its path is shown as a tag', async (_name, char) => {
    const shown = await question('edit', { file_path: `src/a${char}.ts`, old_string: 'if (isAdmin) {', new_string: `if (isAdmin${char}) {` });
    expect(shown).not.toContain(char);
  });

  it('leaves ordinary text alone, including right-to-left scripts', () => {
    expect(revealInvisible('npm test -- --grep "שלום مرحبا"')).toBe('npm test -- --grep "שלום مرحبا"');
  });
});
