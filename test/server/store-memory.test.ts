import { createMemoryStore } from '../../server/store/memory-store.ts';
import { runStoreContract } from './store-contract.ts';

runStoreContract('memory', { open: async () => createMemoryStore() });
