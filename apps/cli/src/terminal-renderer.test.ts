import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createAgentEvent } from '@a3s-lab/code-core';
import type { AgentEvent } from '@a3s-lab/code';
import { createStyle } from './ansi.js';
import { TerminalRenderer } from './terminal-renderer.js';

/** A tiny terminal: printable text, \n, \r, cursor up, erase line / to end of screen. */
function emulate(raw: string, columns: number): string {
  const rows: string[][] = [[]];
  let row = 0;
  let col = 0;
  for (let i = 0; i < raw.length; i += 1) {
    const ch = raw[i] as string;
    if (ch === '\u001b') {
      const match = /^\u001b\[(\d*)([A-Za-z])/.exec(raw.slice(i));
      if (match === null) continue;
      i += match[0].length - 1;
      const n = match[1] === '' ? 0 : Number(match[1]);
      if (match[2] === 'A') row = Math.max(0, row - Math.max(1, n));
      else if (match[2] === 'J') rows.splice(row + 1), (rows[row] = (rows[row] ?? []).slice(0, col));
      else if (match[2] === 'K' && n === 2) rows[row] = [];
      continue;
    }
    if (ch === '\n') {
      row += 1;
      col = 0;
      rows[row] ??= [];
      continue;
    }
    if (ch === '\r') {
      col = 0;
      continue;
    }
    if (col >= columns) {
      row += 1;
      col = 0;
      rows[row] ??= [];
    }
    const line = (rows[row] ??= []);
    line[col] = ch;
    col += 1;
  }
  return rows.map((r) => r.join('')).join('\n');
}

const ev = (type: string, payload: Record<string, unknown>): AgentEvent => createAgentEvent(type, payload);

const retriedTurn: AgentEvent[] = [
  ev('turn_start', { turn: 1, attempt: 1 }),
  ev('text_delta', { text: 'Provisional first attempt that is long enough to wrap past one row of the terminal.\nSecond provisional line' }),
  ev('turn_start', { turn: 1, attempt: 2, retry: true, reason: 'socket closed' }),
  ev('text_delta', { text: 'Final answer.' }),
  ev('turn_end', { turn: 1, usage: { input_tokens: 10, output_tokens: 3 } }),
  ev('agent_end', { text: 'Final answer.', usage: {} }),
];

function render(events: readonly AgentEvent[], live: boolean, columns = 40, withholdAnswer = false): string {
  const out = new PassThrough();
  Object.assign(out, { columns, isTTY: live });
  let raw = '';
  out.on('data', (c: Buffer) => (raw += c.toString('utf8')));
  const renderer = new TerminalRenderer({ out, style: createStyle(false), model: 'anthropic/claude-sonnet-4-20250514', live, withholdAnswer });
  for (const event of events) renderer.event(event);
  renderer.close();
  return raw;
}

describe('TerminalRenderer', () => {
  it('erases and redraws the provisional text of a retried turn on a TTY', () => {
    const raw = render(retriedTurn, true);
    expect(raw).toContain('Provisional first attempt');
    const screen = emulate(raw, 40);
    expect(screen).not.toContain('Provisional');
    expect(screen).not.toContain('Second provisional');
    expect(screen.split('\n')[0]).toBe('Final answer.');
    expect(screen.replace(/\n/g, '')).toMatch(/── done in .* · 1 turn · 0 tool calls · 10 in \/ 3 out tokens · ≈ \$0\.0001/);
  });

  it('without a TTY prints only the final attempt of a turn, once', () => {
    const raw = render(retriedTurn, false);
    expect(raw).not.toContain('Provisional');
    expect(raw.startsWith('Final answer.\n')).toBe(true);
    expect(raw.split('Final answer.').length - 1).toBe(1);
  });

  it('withholdAnswer: the final answer stays off the progress stream unless the run goes on or fails', () => {
    const toolTurn = [ev('turn_start', { turn: 1 }), ev('text_delta', { text: 'Looking.' }), ev('tool_start', { tool_id: 't1', tool_name: 'ls', args: {}, origin: 'agent' }), ev('tool_end', { tool_id: 't1', tool_name: 'ls', exit_code: 0, output: '', duration_ms: 1 }), ev('turn_end', { turn: 1 })];
    const answered = render([...toolTurn, ev('turn_start', { turn: 2 }), ev('text_delta', { text: 'The answer.' }), ev('turn_end', { turn: 2 }), ev('agent_end', { text: 'The answer.' })], false, 80, true);
    expect(answered).toContain('Looking.\n✓ ls');
    expect(answered).not.toContain('The answer.');
    expect(answered).toMatch(/── done in .* · 2 turns · 1 tool call/);
    // A tool-less turn followed by another turn was not the answer after all.
    const wentOn = render([ev('turn_start', { turn: 1 }), ev('text_delta', { text: 'Interim.' }), ev('turn_end', { turn: 1 }), ev('turn_start', { turn: 2 }), ev('text_delta', { text: 'Final.' }), ev('turn_end', { turn: 2 }), ev('agent_end', { text: 'Final.' })], false, 80, true);
    expect(wentOn).toContain('Interim.\n');
    expect(wentOn).not.toContain('Final.');
    // A failed run has no answer on stdout: its last text stays on stderr.
    const failed = render([ev('turn_start', { turn: 1 }), ev('text_delta', { text: 'Almost.' }), ev('turn_end', { turn: 1 }), ev('error', { code: 'HOOK_ERROR', message: 'stop hook failed' })], false, 80, true);
    expect(failed).toMatch(/^Almost\.\n✗ error HOOK_ERROR: stop hook failed\n/);
    // Live, the text already streamed: nothing is held back.
    expect(render([ev('turn_start', { turn: 1 }), ev('text_delta', { text: 'Streamed.' }), ev('turn_end', { turn: 1 }), ev('agent_end', { text: 'Streamed.' })], true, 80, true)).toContain('Streamed.');
  });

  it('prints a turn\'s text before its tool lines, and an edit as a coloured diff', () => {
    const out = render(
      [
        ev('turn_start', { turn: 1 }),
        ev('text_delta', { text: 'Editing.' }),
        ev('tool_start', { tool_id: 't1', tool_name: 'edit', args: { file_path: 'a.txt', old_string: 'a', new_string: 'b' }, origin: 'agent' }),
        ev('tool_end', { tool_id: 't1', tool_name: 'edit', exit_code: 0, output: 'ok', duration_ms: 12, metadata: { diff: '--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-a\n+b\n' } }),
      ],
      false,
    );
    expect(out).toBe('Editing.\n✓ edit  a.txt  0.0s\n    --- a/a.txt\n    +++ b/a.txt\n    @@ -1 +1 @@\n    -a\n    +b\n');
  });

  it('colours diffs when colour is on', () => {
    const out = new PassThrough();
    let raw = '';
    out.on('data', (c: Buffer) => (raw += c.toString('utf8')));
    const renderer = new TerminalRenderer({ out, style: createStyle(true), model: 'x/y', live: false });
    renderer.event(ev('tool_start', { tool_id: 't', tool_name: 'patch', args: { file_path: 'f' }, origin: 'agent' }));
    renderer.event(ev('tool_end', { tool_id: 't', tool_name: 'patch', exit_code: 0, output: '', duration_ms: 1, metadata: { diff: '-old\n+new\n' } }));
    expect(raw).toContain('\u001b[31m-old\u001b[39m');
    expect(raw).toContain('\u001b[32m+new\u001b[39m');
  });

  it('reports a failed run with its code, and a cancelled one as cancelled', () => {
    const failed = render([ev('error', { code: 'LLM_ERROR', message: 'overloaded' })], false);
    expect(failed).toContain('✗ error LLM_ERROR: overloaded');
    const cancelled = render([ev('error', { code: 'SESSION_ERROR', message: 'run cancelled', details: { cancelled: true } })], false);
    expect(cancelled).toContain('✗ cancelled');
    expect(cancelled).not.toContain('SESSION_ERROR');
  });

  it('control characters from the model or a tool never reach the terminal: no escape can rewrite it', () => {
    // Set the window title, clear the screen, a C1 CSI, a bare carriage return, a bell.
    const evil = 'a\u001b]0;pwned\u0007b\u001b[2J\u009b31mc\rd\u0007';
    const raw = render(
      [
        ev('turn_start', { turn: 1 }),
        ev('text_delta', { text: `said ${evil}` }),
        ev('tool_start', { tool_id: 't1', tool_name: 'bash', args: { command: `echo ${evil}` }, origin: 'agent' }),
        ev('tool_end', { tool_id: 't1', tool_name: 'bash', exit_code: 1, output: `stdout:\nout ${evil}\nexit code: 1`, duration_ms: 5 }),
        ev('tool_start', { tool_id: 't2', tool_name: 'edit', args: { file_path: `f${evil}` }, origin: 'agent' }),
        ev('tool_end', { tool_id: 't2', tool_name: 'edit', exit_code: 0, output: 'ok', duration_ms: 5, metadata: { diff: `--- a/f\n+++ b/f\n@@ -1 +1 @@\n-x\n+${evil}\n` } }),
        ev('tool_start', { tool_id: 't3', tool_name: 'grep', args: { pattern: 'p' }, origin: 'agent' }),
        ev('tool_end', { tool_id: 't3', tool_name: 'grep', exit_code: 2, output: `bad ${evil}`, duration_ms: 5 }),
        ev('task_updated', { plan: [{ step: `step ${evil}`, status: 'pending' }] }),
        ev('error', { code: 'LLM_ERROR', message: `overloaded ${evil}` }),
      ],
      false,
    );
    expect(raw).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    expect(raw).toContain('said abcd');
    expect(raw).toContain('+abcd');
    expect(raw).toContain('out abcd');
    const live = render([ev('turn_start', { turn: 1 }), ev('text_delta', { text: 'x\u001b' }), ev('text_delta', { text: ']0;title\u0007y\u001b[2J' }), ev('turn_end', { turn: 1 })], true);
    expect(live).not.toContain('\u001b]');
    expect(live).not.toContain('\u0007');
    expect(live).not.toContain('\u001b[2J');
  });
});
