import { describe, expect, it } from 'vitest';

import * as local from './index.js';

describe('@a3s-lab/code-local exports', () => {
  it('pins the public runtime exports', () => {
    expect(Object.keys(local).sort()).toEqual(
      [
        'DEFAULT_GIT_TIMEOUT_MS',
        'DEFAULT_SANDBOX_DENY_READ',
        'FileSessionStore',
        'LocalWorkspaceBackend',
        'sandboxedCommand',
      ].sort(),
    );
  });

  it('declares every capability', () => {
    expect(new local.LocalWorkspaceBackend('/tmp').capabilities).toEqual({ read: true, write: true, list: true, search: true, exec: true, git: true, versionedWrites: true });
  });
});
