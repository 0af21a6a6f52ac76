import { describe, expect, expectTypeOf, it } from 'vitest';
import type * as core from '@a3s-lab/code-core';
import * as s3 from './index.js';

describe('@a3s-lab/code-s3 public surface', () => {
  it('exports exactly these runtime values', () => {
    // Adding or removing an export is an API decision: update this list on purpose.
    expect(Object.keys(s3).sort()).toEqual(['DEFAULT_S3_LEASE_TTL_MS', 'S3SessionLeases', 'S3SessionStore', 'S3WorkspaceBackend', 'S3_CONNECTION_DEFAULTS', 'S3_WORKSPACE_DEFAULTS']);
  });

  it('re-exports the plain-data option and lease types declared in core (one declaration)', () => {
    expectTypeOf<s3.S3ConnectionOptions>().toEqualTypeOf<core.S3ConnectionOptions>();
    expectTypeOf<s3.S3WorkspaceBackendOptions>().toEqualTypeOf<core.S3WorkspaceBackendOptions>();
    expectTypeOf<s3.S3LeaseRecord>().toEqualTypeOf<core.S3LeaseRecord>();
    expectTypeOf<s3.S3LeaseAttempt>().toEqualTypeOf<core.S3LeaseAttempt>();
    // The store also takes an existing S3Client (declared here only); core's options are the rest.
    expectTypeOf<core.S3SessionStoreOptions>().toExtend<s3.S3SessionStoreOptions>();
    expectTypeOf<s3.S3SessionLeases>().toExtend<core.S3SessionLeasesLike>();
  });
});
