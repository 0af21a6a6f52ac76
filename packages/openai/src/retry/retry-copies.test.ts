import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Providers never import each other, so the retry module exists twice; this keeps the copies equal.
const here = dirname(fileURLToPath(import.meta.url));
const twin = join(here, '../../../anthropic/src/retry');

describe('retry module copies', () => {
  it('is identical in @a3s-lab/code-anthropic and @a3s-lab/code-openai', () => {
    const files = readdirSync(here).filter((name) => name.endsWith('.ts') && name !== 'retry-copies.test.ts').sort();
    expect(readdirSync(twin).filter((name) => name.endsWith('.ts')).sort()).toEqual(files);
    for (const file of files) expect(readFileSync(join(twin, file), 'utf8'), file).toBe(readFileSync(join(here, file), 'utf8'));
  });
});
