import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';

import { SYNC_SHA256_MAX_BYTES, sha256Hex, sha256HexSync } from './sha256.js';

describe('sha256Hex', () => {
  it('matches node:crypto on both sides of the in-place limit and at block edges', async () => {
    for (const size of [0, 1, 55, 56, 63, 64, 65, 1000, SYNC_SHA256_MAX_BYTES, SYNC_SHA256_MAX_BYTES + 1, 200_000]) {
      const data = new Uint8Array(randomBytes(size));
      const expected = createHash('sha256').update(data).digest('hex');
      expect(await sha256Hex(data), `size ${size}`).toBe(expected);
      expect(sha256HexSync(data), `size ${size}`).toBe(expected);
    }
  });
});
