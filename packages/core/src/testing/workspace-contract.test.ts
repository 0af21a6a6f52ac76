import { describe, it } from 'vitest';
import { describeWorkspaceContract } from './workspace-contract.js';
import { MemoryWorkspaceBackend } from './memory-workspace-backend.js';

// The in-memory backend runs the same suite as the real ones; exec/git cases skip themselves.
describeWorkspaceContract('MemoryWorkspaceBackend', async () => ({ backend: new MemoryWorkspaceBackend(), cleanup: async () => undefined }), { runner: { describe, it } });
