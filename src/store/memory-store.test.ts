import { expect, it } from 'vitest';
import { MemoryStore } from './memory-store.ts';
import { describeStoreContract } from '../../test/support/store-contract.ts';

describeStoreContract('MemoryStore', { make: async () => new MemoryStore() });

it('MemoryStore says it is not persistent', () => {
  const store = new MemoryStore();
  expect(store.persistent).toBe(false);
  expect(store.kind).toBe('memory');
});
