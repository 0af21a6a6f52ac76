// The UI's pure rendering rules, without a browser: the Markdown renderer never emits HTML from
// the text, tool cards name denied and timed-out calls as such (never as a failed command), diffs
// are classified per line. Rendered to static markup with react-dom/server.
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { diffLineClass, looksLikeDiff } from './diff-view.js';
import { Markdown, parseBlocks, safeHref } from './markdown.js';
import { runEndText } from './message-view.js';
import { ToolCard, toolOutcome } from './tool-card.js';
import type { AnyToolPart } from './tool-card.js';

const html = (text: string): string => renderToStaticMarkup(createElement(Markdown, { text }));
const card = (part: AnyToolPart): string => renderToStaticMarkup(createElement(ToolCard, { part, answer: async () => undefined }));

describe('markdown', () => {
  it('renders blocks and inline marks as elements', () => {
    const out = html('## Title\n\nSome **bold**, *em* and `code`.\n\n- a\n- b\n\n1. one\n\n> quoted\n\n```js\nconst x = 1 < 2;\n```\n\n---');
    expect(out).toContain('<h3>Title</h3>');
    expect(out).toContain('<strong>bold</strong>');
    expect(out).toContain('<em>em</em>');
    expect(out).toContain('<code>code</code>');
    expect(out).toContain('<ul><li>a</li><li>b</li></ul>');
    expect(out).toContain('<ol start="1"><li>one</li></ol>');
    expect(out).toContain('<blockquote><p>quoted</p></blockquote>');
    expect(out).toContain('const x = 1 &lt; 2;');
    expect(out).toContain('<hr/>');
  });

  it('keeps raw HTML as text and drops unsafe link targets', () => {
    const out = html('<img src=x onerror="alert(1)"> <script>alert(2)</script>\n\n[a](javascript:alert(3)) [b](data:text/html,x) [c](https://example.com/ok) https://example.com/bare.');
    expect(out).not.toMatch(/<img|<script/);
    expect(out).toContain('&lt;img src=x onerror=&quot;alert(1)&quot;&gt;');
    expect(out).not.toContain('href="javascript:');
    expect(out).not.toContain('href="data:');
    expect(out).toContain('<a href="https://example.com/ok" target="_blank" rel="noopener noreferrer">c</a>');
    expect(out).toContain('<a href="https://example.com/bare" target="_blank" rel="noopener noreferrer">https://example.com/bare</a>.');
    expect(safeHref(' JavaScript:alert(1)')).toBeNull();
    expect(safeHref('mailto:a@b.c')).toBe('mailto:a@b.c');
  });

  it('renders pipe tables with inline marks in cells (and a lone pipe stays text)', () => {
    const out = html('| file | result |\n| --- | :---: |\n| `a.js` | **ok** |\n| b.js |\n\nx | y');
    expect(out).toContain('<thead><tr><th>file</th><th>result</th></tr></thead>');
    expect(out).toContain('<tr><td><code>a.js</code></td><td><strong>ok</strong></td></tr>');
    expect(out).toContain('<tr><td>b.js</td><td></td></tr>');
    expect(out).toContain('<p>x | y</p>');
    expect(html('a | b\n---')).not.toContain('<table>');
  });

  it('an unclosed fence (text still streaming) runs to the end; a diff fence is coloured', () => {
    expect(parseBlocks('text\n```\ncode so far')).toEqual([
      { kind: 'paragraph', text: 'text' },
      { kind: 'code', lang: '', text: 'code so far' },
    ]);
    const out = html('```diff\n@@ -1 +1 @@\n-a\n+b\n```');
    expect(out).toContain('<span class="del">-a</span>');
    expect(out).toContain('<span class="add">+b</span>');
  });
});

describe('diffs', () => {
  it('classifies unified diff lines', () => {
    expect(['--- a/x', '+++ b/x', '@@ -1 +1 @@', '-old', '+new', ' same'].map(diffLineClass)).toEqual(['file', 'file', 'hunk', 'del', 'add', 'ctx']);
    expect(looksLikeDiff('--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b')).toBe(true);
    expect(looksLikeDiff('- a list item\n- another')).toBe(false);
  });
});

describe('tool cards', () => {
  const base = { type: 'tool-bash', toolCallId: 't1', input: { command: 'rm -rf src' } } as const;

  it('a denied call is drawn as denied, a timed-out one as timed out: neither as a failed command', () => {
    const denied = { ...base, state: 'output-denied', approval: { id: 'c1', approved: false, reason: 'denied in the browser UI' } } as const;
    const timedOut = { ...base, state: 'output-denied', approval: { id: 'c1', approved: false, reason: 'timed out' } } as const;
    expect(toolOutcome(denied)).toBe('denied');
    expect(toolOutcome(timedOut)).toBe('timed-out');
    expect(card(denied)).toContain('Denied: not run (denied in the browser UI).');
    expect(card(timedOut)).toContain('Approval timed out: not run (timed out).');
    for (const out of [card(denied), card(timedOut)]) {
      expect(out).not.toContain('exit code');
      expect(out).not.toContain('failed');
    }
  });

  it('approval first, then the result; a non-zero exit is a failure; a pending approval has buttons', () => {
    const done = { ...base, state: 'output-available', input: { command: 'false' }, output: { output: 'boom', exitCode: 1 }, approval: { id: 'c2', approved: true } } as const;
    const out = card(done);
    expect(out.indexOf('Approved.')).toBeGreaterThan(-1);
    expect(out.indexOf('Approved.')).toBeLessThan(out.indexOf('boom'));
    expect(out).toContain('exit code 1');
    const asked = card({ ...base, state: 'approval-requested', approval: { id: 'c3' } });
    expect(asked).toContain('class="approve"');
    expect(asked).toContain('class="deny"');
    expect(asked).toMatch(/<details[^>]* open=""/);
  });

  it('an edit waiting for approval shows what it would change as a diff', () => {
    const out = card({ type: 'tool-edit', toolCallId: 'e0', state: 'approval-requested', input: { file_path: 's.js', old_string: 'i = 1', new_string: 'i = 0' }, approval: { id: 'c4' } });
    expect(out).toContain('<span class="del">-i = 1</span>');
    expect(out).toContain('<span class="add">+i = 0</span>');
    expect(out).not.toContain('old_string');
  });

  it('an edit shows its summary once and its diff coloured', () => {
    const diff = '--- a/s.js\n+++ b/s.js\n@@ -1 +1 @@\n-i = 1\n+i = 0\n';
    const out = card({ type: 'tool-edit', toolCallId: 'e1', state: 'output-available', input: { file_path: 's.js' }, output: { output: `Made 1 replacement in s.js.\n${diff}`, exitCode: 0, metadata: { diff } } });
    expect(out.match(/Made 1 replacement/g)).toHaveLength(1);
    expect(out).toContain('<span class="add">+i = 0</span>');
  });
});

describe('run end', () => {
  it('says the status and tokens from the finish metadata', () => {
    expect(runEndText({ status: 'completed', usage: { totalTokens: 12140 } })).toBe('Run completed · 12,140 tokens');
    expect(runEndText({ status: 'cancelled' })).toBe('Run cancelled');
    expect(runEndText(undefined)).toBe('Run finished');
  });
});
