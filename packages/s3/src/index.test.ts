import { describe, expect, it } from 'vitest';
import * as s3 from './index.js';

describe('@a3s-lab/code-s3 public surface', () => {
  it('exports exactly these runtime values', () => {
    // Adding or removing an export is an API decision: update this list on purpose.
    expect(Object.keys(s3).sort()).toEqual(['DEFAULT_S3_LEASE_TTL_MS', 'S3SessionLeases', 'S3SessionStore', 'S3WorkspaceBackend', 'S3_CONNECTION_DEFAULTS', 'S3_WORKSPACE_DEFAULTS']);
  });
});
