/**
 * The player's I/O, built in one place and injected into `Player`: fetch (relative to the page's
 * base URL, so the site works from any sub-path), story identification, the engine (one Worker per
 * game via `EngineProxy`), the store (IndexedDB, else memory), the clock and file downloads.
 * Components never do I/O; tests can swap any of these.
 */
import { scrubText } from '../../../common/secrets.ts';
import { EngineProxy } from '../../../engine/engine-proxy.ts';
import { createBrowserWorker } from '../../../engine/browser/worker-factory.ts';
import type { EngineSnapshot, LoadOptions, StepResult, StoryInfo } from '../../../engine/interface.ts';
import { identifyStory } from '../../../engine/story-file.ts';
import { openIdbStore } from '../../../store/idb-store.ts';
import { watchStorage } from '../../../store/storage-watch.ts';
import type { Store } from '../../../store/interface.ts';
import { MemoryStore } from '../../../store/memory-store.ts';
import type { Navigation } from '../../shell/router.svelte.ts';
import { errorText } from './error-text.ts';

/** What the player needs of a running game (`EngineProxy` satisfies it). */
export interface GameEngine {
  readonly info: StoryInfo;
  readonly seed: number;
  readonly start: StepResult;
  step(command: string): Promise<StepResult>;
  snapshot(): Promise<EngineSnapshot>;
  restore(snapshot: EngineSnapshot): Promise<StepResult>;
  reset(): Promise<StepResult>;
  dispose(): void;
}

/** The opened store; `problem` explains why it is memory-only (null when persistent). */
export interface OpenedStore {
  store: Store;
  problem: string | null;
}

export interface PlayerServices {
  /** A page-relative path ('stories/catalog.json') as an absolute URL (against document.baseURI). */
  resolve(path: string): URL;
  /** GET `url` as bytes. @throws Error with a user-readable message (network error, HTTP status) */
  fetchBytes(url: URL): Promise<Uint8Array>;
  /** GET `url` as JSON; `undefined` when absent (HTTP error or not JSON). Never throws. */
  fetchOptionalJson(url: URL): Promise<unknown>;
  /** md5 of the Z-code image. @throws StoryFileError for bytes that are not a runnable story */
  /** md5 of the Z-code and warnings that do not stop it running (a header checksum mismatch).
   * @throws StoryFileError for bytes that are not a story */
  identify(bytes: Uint8Array): { md5: string; warnings?: string[] };
  /** Start a game in its own worker. @throws StoryFileError, EngineError */
  loadEngine(bytes: Uint8Array, options: LoadOptions): Promise<GameEngine>;
  openStore(): Promise<OpenedStore>;
  readFile(file: File): Promise<Uint8Array>;
  /** ms since the Unix epoch. */
  now(): number;
  /** The page's URL query (`?story=advent&seed=3` overrides the saved last story and its seed). */
  query(): URLSearchParams;
  /** Offer `data` (text, or bytes such as a PNG) to the user as a file download named `fileName`. */
  download(fileName: string, data: string | Blob, mimeType: string): void;
}

/** The wall-clock time `ms` (ms since the Unix epoch, from `now()`) as a Date. */
export const dateAt = (ms: number): Date => new Date(ms);

/** Watchdog budget of one step in the page, ms. */
const STEP_TIMEOUT_MS = 5_000;

/**
 * The page's services. `onStorageFailure` hears of every failed store write (storage low, full or
 * closed: store/storage-watch.ts), for the storage alarm.
 */
export function createBrowserServices(doc: Document = document, fetchImpl: typeof fetch = fetch.bind(globalThis), onStorageFailure?: (error: unknown) => void): PlayerServices {
  return {
    resolve: (path) => new URL(path, doc.baseURI),
    async fetchBytes(url) {
      let response: Response;
      try {
        response = await fetchImpl(url);
      } catch (error) {
        throw new Error(`Could not download ${url.href}: ${(error as Error).message} (is the address right, and does the server allow cross-origin requests?)`);
      }
      if (response.status === 404) throw new Error(`Not found: ${url.href} (HTTP 404).`);
      if (!response.ok) throw new Error(`Could not download ${url.href}: HTTP ${response.status} ${response.statusText}`.trim());
      // A server that answers every unknown path with its page (a dev server, a single-page app)
      // sends HTML with 200 OK: for a story address that means "not found".
      const type = response.headers.get('content-type') ?? '';
      if (/^text\/html\b/i.test(type) && !/\.html?$/i.test(url.pathname)) {
        throw new Error(`Not found: ${url.href} (the server answered with a web page, not a story file).`);
      }
      return new Uint8Array(await response.arrayBuffer());
    },
    async fetchOptionalJson(url) {
      try {
        const response = await fetchImpl(url);
        return response.ok ? ((await response.json()) as unknown) : undefined;
      } catch {
        return undefined;
      }
    },
    identify: (bytes) => {
      const { md5, warnings } = identifyStory(bytes);
      return { md5, warnings };
    },
    loadEngine: (bytes, options) => EngineProxy.load(createBrowserWorker, bytes, options, { stepTimeoutMs: STEP_TIMEOUT_MS }),
    async openStore() {
      try {
        const store = await openIdbStore();
        // Ask the browser to keep this origin's data under storage pressure (it may say no).
        const storage = (navigator as Partial<Navigator>).storage;
        void storage?.persist().catch(() => false);
        const gauge = storage ?? null;
        return { store: gauge ? watchStorage(store, gauge, { onFailure: (error) => onStorageFailure?.(error) }) : store, problem: null };
      } catch (error) {
        return { store: new MemoryStore(), problem: errorText(error) };
      }
    },
    readFile: async (file) => new Uint8Array(await file.arrayBuffer()),
    now: () => Date.now(),
    query: () => new URL(doc.URL).searchParams,
    download(fileName, data, mimeType) {
      // Every text download is scrubbed of the API key (common/secrets.ts), whatever made the text.
      const url = URL.createObjectURL(typeof data === 'string' ? new Blob([scrubText(data)], { type: mimeType }) : data);
      const link = doc.createElement('a');
      link.href = url;
      link.download = fileName;
      link.style.display = 'none';
      doc.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 1_000);
    },
  };
}

/** The browser's history for the `Router` (pushState; popstate for back / forward). */
export function createBrowserNavigation(win: Window = window): Navigation {
  return {
    url: () => new URL(win.location.href),
    push: (url) => win.history.pushState(null, '', url),
    onPop: (listener) => win.addEventListener('popstate', listener),
  };
}
