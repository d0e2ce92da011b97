/**
 * Test-only `PlayerServices` for Node: the real synchronous engine behind the async `GameEngine`
 * surface, the shipped catalog and advent.z5 under a fake base URL, a memory store, a counting
 * clock and a download log. Used by the ui unit tests; the page never imports it.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { identifyStory } from '../../../src/engine/story-file.ts';
import { loadStory } from '../../../src/engine/zvm-engine.ts';
import type { Store } from '../../../src/store/interface.ts';
import { MemoryStore } from '../../../src/store/memory-store.ts';
import type { GameEngine, PlayerServices } from '../../../src/ui/shared/state/services.ts';

const require = createRequire(import.meta.url);
export const adventBytes = new Uint8Array(readFileSync(require.resolve('glkote-term/tests/advent.z5')));
const catalog = JSON.parse(readFileSync(new URL('../../../public/stories/catalog.json', import.meta.url), 'utf8')) as unknown;
export const BASE = 'http://test.invalid/sub/';

export interface FakeServices extends PlayerServices {
  /** Every `download` call, in order (`text` is '' for a Blob, which is in `blob`). */
  downloads: { fileName: string; text: string; mimeType: string; blob?: Blob }[];
}

export function fakeServices(store: Store = new MemoryStore(), query = ''): FakeServices {
  let clock = 1000;
  const downloads: FakeServices['downloads'] = [];
  return {
    downloads,
    resolve: (path) => new URL(path, BASE),
    async fetchBytes(url) {
      if (url.href === `${BASE}stories/advent.z5`) return adventBytes.slice();
      throw new Error(`Could not download ${url.href}: HTTP 404`);
    },
    fetchOptionalJson: async (url) => (url.href === `${BASE}stories/catalog.json` ? catalog : undefined),
    identify: (bytes) => {
      const { md5, warnings } = identifyStory(bytes);
      return { md5, warnings };
    },
    async loadEngine(bytes, options): Promise<GameEngine> {
      const engine = loadStory(bytes, options);
      return {
        info: engine.info, seed: engine.seed, start: engine.start, dispose: () => undefined,
        step: async (c) => engine.step(c), snapshot: async () => engine.snapshot(),
        restore: async (s) => engine.restore(s), reset: async () => engine.reset(),
      };
    },
    openStore: async () => ({ store, problem: null }),
    readFile: async (file) => new Uint8Array(await file.arrayBuffer()),
    now: () => clock++,
    query: () => new URLSearchParams(query),
    download: (fileName, data, mimeType) =>
      void downloads.push(typeof data === 'string' ? { fileName, text: data, mimeType } : { fileName, text: '', mimeType, blob: data }),
  };
}
