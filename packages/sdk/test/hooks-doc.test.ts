// docs/hooks.md documents every hook event (payload, the `modified` keys that act, actions) and
// what `confirmationPolicy.enabled: false` does; the SDK README points to it.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { HOOK_EVENTS } from '@a3s-lab/code-core';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const doc = readFileSync(join(root, 'docs', 'hooks.md'), 'utf8');

describe('docs/hooks.md', () => {
  it('has a row for every hook event', () => {
    const rows = doc.split('\n').filter((line) => line.startsWith('| `')).map((line) => /^\| `([a-z_]+)`/.exec(line)?.[1]);
    expect(rows.sort()).toEqual([...HOOK_EVENTS].sort());
  });

  it('names the modified keys the runtime reads and the disabled-confirmation denial', () => {
    for (const key of ['`args`', '`argsPatch`', '`output`', '`prompt`', '`modified_task`', '`selected_strategy`', '`hints`']) expect(doc).toContain(key);
    expect(doc).toContain('confirmationPolicy: { enabled: false }');
    expect(doc).toMatch(/every call the permission policy answers with `ask` is \*\*denied\*\*/);
    expect(readFileSync(join(root, 'packages', 'sdk', 'README.md'), 'utf8')).toContain('docs/hooks.md');
  });
});
