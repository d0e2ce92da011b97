/**
 * Test-only wiring for the Evolve and Evaluate state classes in Node: the fake player services
 * (advent under a fake base URL, a memory store), settings pointed at a mock LLM, run services
 * with in-process engines; fake Web Locks shared by "tabs" come from ../fake-locks.ts. The page
 * never imports this.
 */
import { loadStory } from '../../../src/engine/zvm-engine.ts';
import { StorageBlockedError, StorageFullError, type Store } from '../../../src/store/interface.ts';
import { MemoryStore } from '../../../src/store/memory-store.ts';
import { syncEngine } from '../../../src/ttl/episode-runner.ts';
import type { Schedule } from '../../../src/ui/shared/state/retry-countdown.svelte.ts';
import { ApiKeyHolder } from '../../../src/ui/shared/state/api-key.svelte.ts';
import { fakeServices, type FakeServices } from './fake-services.ts';
import { createBrowserLlmServices, type LlmServices } from '../../../src/ui/shared/state/llm-services.ts';
import { RunServices, type RunLocks, type RunServicesDeps } from '../../../src/ui/shared/state/run-services.ts';

export { fakeLocks } from './fake-locks.ts';
import { SettingsState } from '../../../src/ui/shared/state/settings.svelte.ts';
import { StoryShelf } from '../../../src/ui/shared/state/story-shelf.svelte.ts';

/** A schedule that runs nothing until `flush` (recorded calls, cancellable). */
export function manualSchedule(): Schedule & { flush(): void; pending: number } {
  let queue: { callback: () => void; cancelled: boolean }[] = [];
  const schedule = ((callback: () => void) => {
    const entry = { callback, cancelled: false };
    queue.push(entry);
    return () => void (entry.cancelled = true);
  }) as unknown as Schedule & { flush(): void; pending: number };
  schedule.flush = () => {
    const due = queue.filter((e) => !e.cancelled);
    queue = [];
    for (const e of due) e.callback();
  };
  Object.defineProperty(schedule, 'pending', { get: () => queue.filter((e) => !e.cancelled).length });
  return schedule;
}

export interface TestTab {
  services: FakeServices;
  settings: SettingsState;
  runs: RunServices;
  shelf: StoryShelf;
  llm: LlmServices;
}

/** What a tab's run services use besides the defaults: web sites' documents (jsdom in Node) and
 * how stories load (default: in-process, `syncEngine`). */
export interface TestTabOptions {
  webDocument?: () => Document;
  loadEngine?: RunServicesDeps['loadEngine'];
}

/** One "tab": its own story shelf and settings over a shared store, models at `baseUrl` ('mock-model'). */
export async function testTab(baseUrl: string, store: Store = new MemoryStore(), locks: RunLocks | null = null, options: TestTabOptions = {}): Promise<TestTab> {
  const services = fakeServices(store);
  const llm = createBrowserLlmServices('http://page.invalid');
  const shelf = new StoryShelf(services);
  const key = new ApiKeyHolder();
  const settings = new SettingsState(llm, key);
  await shelf.init();
  await settings.init(shelf.store);
  settings.selectPreset('custom');
  settings.setBaseUrl(baseUrl);
  for (const role of ['actor', 'metaAgent', 'proposer'] as const) settings.changeRole(role, { model: 'mock-model' });
  key.set('sk-test-123456');
  const runs = new RunServices({
    shelf, settings, llm, locks,
    loadEngine: options.loadEngine ?? (async (bytes, load) => ({ ...syncEngine(loadStory(bytes, load)), dispose: () => undefined })),
    ...(options.webDocument ? { webDocument: options.webDocument } : {}),
  });
  return { services, settings, runs, shelf, llm };
}

/**
 * `store` as a browser whose disk fills mid-run: once armed, the `at`-th write from then on fails
 * as IndexedDB's refused transaction does (StorageFullError: nothing of it written), and the browser
 * then closes the database, so every later call, read or write, fails with the store's "connection
 * closed" error. `refused` counts the calls that failed. The data written before stays in `store`
 * (what a reload finds).
 */
export function diskFillingStore(store: Store): { store: Store; arm(at: number): void; readonly refused: number } {
  let left = Infinity;
  let closed = false;
  let refused = 0;
  const writes = /^(put|append|rewrite|set|delete)/;
  const wrapped = new Proxy(store, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (typeof value !== 'function' || typeof prop !== 'string' || prop === 'close') return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
      const method = (value as (...args: unknown[]) => Promise<unknown>).bind(target);
      return async (...args: unknown[]) => {
        if (closed) {
          refused++;
          throw new StorageBlockedError('The browser closed the database connection. Reload the page.');
        }
        if (writes.test(prop) && --left <= 0) {
          closed = true;
          refused++;
          throw new StorageFullError(`the call to ${prop}`);
        }
        return method(...args);
      };
    },
  });
  return { store: wrapped, arm: (at) => void (left = at), get refused() { return refused; } };
}
