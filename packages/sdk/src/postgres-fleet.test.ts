import { describe, expect, it } from 'vitest';
import { createFleet } from './postgres-fleet.js';

const agent = { resumeSessionAsync: () => Promise.reject(new Error('not resumed in this test')) };

describe('createFleet options', () => {
  it('refuses a missing or empty connectionString with CONFIG_ERROR before loading the package', async () => {
    await expect(createFleet({ agent, connectionString: '' })).rejects.toMatchObject({ code: 'CONFIG_ERROR', details: { field: 'connectionString' } });
    await expect(createFleet({ agent } as unknown as Parameters<typeof createFleet>[0])).rejects.toMatchObject({ code: 'CONFIG_ERROR', details: { field: 'connectionString' } });
  });

  it("passes the package's own checks through (a lease under pg-boss's floor)", async () => {
    await expect(createFleet({ agent, connectionString: 'postgres://nobody@127.0.0.1:1/none', leaseMs: 500 })).rejects.toMatchObject({ code: 'CONFIG_ERROR', details: { field: 'leaseMs' } });
  });
});
