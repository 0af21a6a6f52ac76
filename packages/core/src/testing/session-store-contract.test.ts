import { describe, it } from 'vitest';
import { MemorySessionStore } from '../session/memory-session-store.js';
import { sessionStoreContract } from './session-store-contract.js';

describe('MemorySessionStore: session store contract', () => {
  for (const c of sessionStoreContract(async () => {
    const store = new MemorySessionStore();
    return { store, putRaw: async (id, text) => store.putRaw(id, text), cleanup: async () => undefined };
  })) {
    it(c.title, c.run);
  }
});
