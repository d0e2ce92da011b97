/**
 * The provider "Local model (in this browser)": the models kept in browser storage, a download's
 * progress, the model loaded in wllama's worker (at most one; loaded on a run's first call after
 * a reload, from storage — never fetched again) and what Settings says about it (threads, whether
 * the page is cross-origin isolated, measured tokens per second). A module-level singleton like
 * the key holder; the llm modules (and wllama) load only when this provider is used.
 */
import wasmUrl from '@wllama/wllama/esm/wasm/wllama.wasm?url';
import type { BrowserModelHost, LocalActivity, LocalSpeed } from '../../../llm/wllama-chat-model.ts';
import type { StoredModel, SuggestedModel, UnfinishedDownload } from '../../../llm/wllama-model-files.ts';
import { errorText } from './error-text.ts';
import { isolationText, localModelProblem, pageAbilities, type PageAbilities } from '../page-abilities.ts';

/** The preset id of the in-page provider (src/llm/providers.ts). */
export const BROWSER_LOCAL_PRESET = 'browser-local';

const store = () => import('../../../llm/wllama-model-files.ts');
const engine = () => import('../../../llm/wllama-chat-model.ts');

/** A download or copy under way: bytes so far and in all (0 when the server sent no length). */
export interface Transfer {
  name: string;
  loadedBytes: number;
  totalBytes: number;
}

/** What is loaded in the worker, as Settings shows it. */
export interface LoadedInfo {
  name: string;
  contextSize: number;
  threads: number;
  multiThread: boolean;
  loadMs: number;
}

export class LocalModels {
  stored = $state<StoredModel[]>([]);
  /** URL downloads cut short (Stop, a lost connection, a reload): their bytes are kept, Download resumes them. */
  unfinished = $state<UnfinishedDownload[]>([]);
  transfer = $state<Transfer | null>(null);
  error = $state<string | null>(null);
  loading = $state<string | null>(null);
  loaded = $state<LoadedInfo | null>(null);
  speed = $state<LocalSpeed | null>(null);
  /** What the loaded model's worker is doing (null when none is loaded). */
  activity = $state<LocalActivity | null>(null);
  measuring = $state(false);
  suggestions = $state<readonly SuggestedModel[]>([]);
  private host: BrowserModelHost | null = null;
  private hostLoad: Promise<BrowserModelHost> | null = null;
  private abort: AbortController | null = null;

  /** @param abilities what the page may use (page-abilities.ts; default: read from the page) */
  constructor(private readonly abilities: () => PageAbilities = pageAbilities) {}

  /** True when the page is cross-origin isolated (wllama can then run multi-threaded). */
  get isolated(): boolean {
    return this.abilities().isolated;
  }

  /** Why the in-page model cannot run on this page, in plain words (plain http from another
   * machine: no storage for model files); null when it can. */
  get problem(): string | null {
    return localModelProblem(this.abilities());
  }

  /** What Settings says about cross-origin isolation when the page is not isolated (true to why). */
  get isolationText(): string {
    return isolationText(this.abilities());
  }

  /** The threads the user asked for (kept on this device), null = the default. */
  threadsWanted = $state<number | null>(readThreads());

  /** Most threads worth offering: the machine's cores (up to 8) when isolated, else 1. */
  get maxThreads(): number {
    return this.isolated ? Math.max(1, Math.min(8, navigator.hardwareConcurrency || 1)) : 1;
  }

  /** Threads a load asks for: the user's choice, else up to 2 cores, when isolated; else 1. */
  get threads(): number {
    return Math.min(this.maxThreads, this.threadsWanted ?? 2);
  }

  /** Choose the threads (takes effect at the next load: the loaded model is unloaded). */
  async setThreads(threads: number): Promise<void> {
    this.threadsWanted = Math.max(1, Math.min(this.maxThreads, Math.round(threads)));
    try {
      localStorage.setItem(THREADS_KEY, String(this.threadsWanted));
    } catch {
      // storage refused: the choice holds for this page only
    }
    if (this.host && this.host.threads !== this.threads) await this.unload();
  }

  /** Read the stored models (and the suggestions). Never throws: a failure is shown as `error`. */
  async refresh(): Promise<void> {
    if (this.problem !== null) return;
    try {
      const s = await store();
      this.suggestions = s.SUGGESTED_MODELS;
      this.stored = await s.listStoredModels();
      this.unfinished = await s.listUnfinishedDownloads();
    } catch (error) {
      this.error = messageOf(error);
    }
  }

  /**
   * Download a model by URL into storage, with progress, going on from the bytes kept of an
   * earlier attempt (the progress starts there); resolves with its name, null on failure (see `error`).
   */
  async download(url: string): Promise<string | null> {
    if (this.problem !== null) return ((this.error = this.problem), null);
    const s = await store();
    const name = s.modelNameOf(url.trim());
    const kept = this.unfinished.find((u) => u.url === url.trim());
    return this.transferring(name, (signal) => s.downloadModel(url.trim(), { signal, onProgress: (loadedBytes, totalBytes) => (this.transfer = { name, loadedBytes, totalBytes }) }), kept ? { loadedBytes: kept.keptBytes, totalBytes: kept.totalBytes ?? 0 } : undefined);
  }

  /** Drop the bytes kept of an unfinished download. */
  async discard(url: string): Promise<void> {
    try {
      await (await store()).discardUnfinishedDownload(url);
    } catch (error) {
      this.error = messageOf(error);
    }
    await this.refresh();
  }

  /** Copy a picked or dropped file into storage; resolves with its name, null on failure. */
  async addFile(file: File): Promise<string | null> {
    if (this.problem !== null) return ((this.error = this.problem), null);
    const s = await store();
    return this.transferring(file.name, () => s.storeModelFile(file, file.name));
  }

  /** Stop the download under way (the bytes that arrived are kept: Download resumes it). */
  cancel(): void {
    this.abort?.abort();
  }

  /** Remove a model from storage (unloading it when it is the loaded one). */
  async remove(url: string): Promise<void> {
    const model = this.stored.find((m) => m.url === url);
    if (model && this.loaded?.name === model.name) await this.unload();
    try {
      await (await store()).removeStoredModel(url);
    } catch (error) {
      this.error = messageOf(error);
    }
    await this.refresh();
  }

  /**
   * The loaded model called `name`, loading it from storage when another (or none) is loaded.
   * @throws Error when no stored model has that name, it fails to load, or the page cannot keep model files (`problem`: plain http from another machine)
   */
  async hostFor(name: string): Promise<BrowserModelHost> {
    if (this.host?.name === name) return this.host;
    if (this.hostLoad && this.loading === name) return this.hostLoad;
    if (this.problem !== null) throw new Error(this.problem);
    await this.unload();
    this.loading = name;
    this.hostLoad = (async () => {
      const s = await store();
      const models = await s.listStoredModels();
      const model = models.find((m) => m.name === name);
      if (!model) throw new Error(`The local model “${name}” is not in this browser’s storage: add it in Settings (Local model).`);
      const { loadWllamaModel } = await engine();
      const host = await loadWllamaModel(await s.openStoredModel(model.url), { name, wasmUrl: absolute(wasmUrl), threads: this.threads, onActivity: (a) => (this.activity = a) });
      this.host = host;
      this.loaded = { name, contextSize: host.contextSize, threads: host.threads, multiThread: host.multiThread, loadMs: host.loadMs };
      return host;
    })();
    try {
      return await this.hostLoad;
    } finally {
      this.loading = null;
      this.hostLoad = null;
    }
  }

  /**
   * Load `name` (if needed) and time one short reply, so Settings shows tokens per second before a run.
   * Never throws: a failure is shown as `error`.
   */
  async measure(name: string): Promise<void> {
    this.error = null;
    this.measuring = true;
    try {
      const [host, { createWllamaChatModels }, { UsageMeter }] = await Promise.all([this.hostFor(name), engine(), import('../../../llm/usage-meter.ts')]);
      const role = { model: name, temperature: 0, maxTokens: 32 };
      const settings = { provider: { presetId: BROWSER_LOCAL_PRESET, baseUrl: 'in-page:wllama', apiKey: '' }, roles: { actor: role, metaAgent: role, proposer: role }, requestTimeoutMs: 120_000, maxRetries: 0, maxRetryWaitMs: 0, maxConcurrent: 1, dropStainlessHeaders: false, caps: { maxUsd: null, maxTokens: null }, prices: {} };
      await createWllamaChatModels(host, settings, new UsageMeter(settings.caps, {}), { grammar: false }).proposer.complete([{ role: 'user', content: 'Name three colours.' }]);
      this.noteSpeed();
    } catch (error) {
      this.error = messageOf(error);
    } finally {
      this.measuring = false;
    }
  }

  /** Note the speed of the last call (shown in Settings). */
  noteSpeed(): void {
    this.speed = this.host?.lastSpeed ?? this.speed;
  }

  private async unload(): Promise<void> {
    const host = this.host;
    this.host = null;
    this.loaded = null;
    this.activity = null;
    await host?.dispose().catch(() => undefined);
  }

  private async transferring(name: string, run: (signal: AbortSignal) => Promise<StoredModel>, from = { loadedBytes: 0, totalBytes: 0 }): Promise<string | null> {
    this.error = null;
    this.abort = new AbortController();
    this.transfer = { name, ...from };
    try {
      const model = await run(this.abort.signal);
      return model.name;
    } catch (error) {
      const kept = this.transfer?.loadedBytes ?? 0;
      const resumable = kept > 0 && (await store()).isResumable(error);
      const keptText = resumable ? ` ${(kept / 1e6).toFixed(1)} MB are kept: Download (or Resume under "Unfinished downloads") goes on from there.` : ' Nothing of it was kept.';
      this.error = this.abort.signal.aborted ? `The download of ${name} was stopped.${keptText}` : `${messageOf(error)}${resumable ? keptText : ''}`;
      return null;
    } finally {
      this.transfer = null;
      this.abort = null;
      await this.refresh();
    }
  }
}

const THREADS_KEY = 'metattl.localModel.threads';

function readThreads(): number | null {
  try {
    const n = Number(localStorage.getItem(THREADS_KEY));
    return Number.isInteger(n) && n >= 1 ? n : null;
  } catch {
    return null;
  }
}

function messageOf(error: unknown): string {
  return errorText(error);
}

/** The page's local models (lives as long as the page). */
export const localModels = new LocalModels();

/** The wasm file's absolute address (wllama's worker starts from a blob URL, so a relative one would not resolve). */
function absolute(url: string): string {
  return new globalThis.URL(url, document.baseURI).href;
}
