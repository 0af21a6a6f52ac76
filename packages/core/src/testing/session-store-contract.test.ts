import { describe, it } from 'vitest';
import { MemorySessionStore } from '../session/memory-session-store.js';
import { describeSessionStoreContract } from './session-store-contract.js';

describeSessionStoreContract('MemorySessionStore', async () => {
  const store = new MemorySessionStore();
  return { store, putRaw: async (id, text) => store.putRaw(id, text), cleanup: async () => undefined };
}, { runner: { describe, it } });
