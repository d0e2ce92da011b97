/**
 * Test-only stand-in for the Web Locks API (`navigator.locks`) as run-services.ts uses it:
 * exclusive lock names, `ifAvailable` requests, and `query()` of the held names. `held` can be
 * filled by a test to play "another tab holds this lock". The page never imports it.
 */
import type { RunLocks } from '../../../src/ui/shared/state/run-services.ts';

/** An in-memory Web Locks stand-in: exclusive names, `ifAvailable` only. */
export function fakeLocks(): RunLocks & { held: Set<string> } {
  const held = new Set<string>();
  const locks = {
    held,
    async request(name: string, _options: unknown, callback: (lock: { name: string } | null) => unknown) {
      if (held.has(name)) return callback(null);
      held.add(name);
      try {
        return await callback({ name });
      } finally {
        held.delete(name);
      }
    },
    async query() {
      return { held: [...held].map((name) => ({ name, mode: 'exclusive' as const })), pending: [] };
    },
  };
  return locks as unknown as RunLocks & { held: Set<string> };
}
