import { describe, expect, it } from 'vitest';

import * as local from './index.js';

describe('@a3s-lab/code-local exports', () => {
  it('pins the public runtime exports', () => {
    expect(Object.keys(local).sort()).toEqual(
      [
        'DEFAULT_DRAIN_GRACE_MS',
        'DEFAULT_GIT_TIMEOUT_MS',
        'DEFAULT_KILL_GRACE_MS',
        'DEFAULT_MAX_OUTPUT_BYTES',
        'FileSessionStore',
        'GIT_ENV',
        'LocalWorkspaceBackend',
        'MAX_COMPONENT_BYTES',
        'MAX_PATH_BYTES',
        'MAX_SYMLINK_HOPS',
        'OutputCapture',
        'PROTECTED_WRITE_PATTERNS',
        'REFUSED_GIT_OPTIONS',
        'SECRET_ENV_NAME_FRAGMENTS',
        'buildChildEnv',
        'confinePath',
        'findRipgrep',
        'isProtectedPath',
        'isSecretEnvName',
        'killAllProcessGroups',
        'liveProcessGroupCount',
        'relativeInside',
        'ripgrepFilesArgs',
        'ripgrepSearchArgs',
        'runProcess',
        'validateGitArgs',
        'versionToken',
      ].sort(),
    );
  });

  it('declares every capability', () => {
    expect(new local.LocalWorkspaceBackend('/tmp').capabilities).toEqual({ read: true, write: true, list: true, search: true, exec: true, git: true, versionedWrites: true });
  });
});
