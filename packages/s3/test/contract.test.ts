import { afterAll, beforeAll, describe, it } from 'vitest';
import { describeWorkspaceContract } from '@a3s-lab/code-core/testing';

import { S3WorkspaceBackend } from '../src/s3-workspace-backend.js';
import { TEST_BUCKET, startS3Fixture } from './helpers/s3-fixture.js';
import type { S3Fixture } from './helpers/s3-fixture.js';

let fixture: S3Fixture;
beforeAll(async () => {
  fixture = await startS3Fixture();
});
afterAll(async () => {
  await fixture.stop();
});

// Every case gets a fresh prefix in the same bucket, through the enforcing proxy.
const workspace = (searchEnabled: boolean) => async () => {
  const prefix = fixture.freshPrefix(searchEnabled ? 'search' : 'plain');
  const backend = new S3WorkspaceBackend({ ...fixture.connection, bucket: TEST_BUCKET, prefix: `tenants/${prefix}`, searchEnabled });
  return {
    backend,
    cleanup: async () => {
      await backend.close();
      await fixture.removePrefix(`tenants/${prefix}`);
    },
  };
};

describeWorkspaceContract('S3WorkspaceBackend (s3rver through the conditional proxy)', workspace(false), {
  // Nothing can be written outside the prefix: the sibling prefix must stay empty.
  runner: { describe, it },
  outsideExists: async (name) => (await fixture.keysUnder(`tenants/${name}`)).length > 0 || (await fixture.keysUnder(name)).length > 0,
});
describeWorkspaceContract('S3WorkspaceBackend with searchEnabled', workspace(true), { runner: { describe, it } });
