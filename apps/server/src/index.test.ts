import { expect, it } from 'vitest';
import * as server from './index.js';

it('pins the exported names', () => {
  expect(Object.keys(server).sort()).toEqual(
    [
      'DEFAULT_CONFIRMATION_POLICY', 'DEFAULT_HOST', 'DEFAULT_LEASE_TTL_MS', 'DEFAULT_MAX_BODY_BYTES', 'DEFAULT_PERMISSION_POLICY', 'FLEET_ROLES', 'FileSessionLeases', 'FleetHost',
      'MIN_TOKEN_LENGTH', 'SERVER_ERROR_CODES', 'SERVER_TOKEN_ENV', 'ServerError', 'SessionHost', 'allowedHostValues', 'createServerApp',
      'followRunEvents', 'formatSseMessage', 'readSseEvents', 'resolveServerOptions', 'resolveServerToken', 'startFleetServer', 'startServer', 'wildcardHostNames',
    ].sort(),
  );
  expect(server.SERVER_ERROR_CODES).toEqual(['UNAUTHORIZED', 'FORBIDDEN_ORIGIN', 'FORBIDDEN_HOST', 'WORKSPACE_NOT_ALLOWED', 'BODY_TOO_LARGE', 'BAD_REQUEST', 'NOT_FOUND', 'SESSION_LEASED', 'SERVER_CLOSING']);
});
