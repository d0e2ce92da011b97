/**
 * The page's local models kept in browser storage: wllama's cache (the Origin Private File
 * System), so a reload does not fetch a model again. Models come from a URL (downloaded with
 * progress, resumable: model-download.ts) or a file the user picked or dropped (copied in). Storage
 * full removes what was half written and keeps every other model; a lost connection, Stop or a
 * reload keep the bytes that arrived, and the next Download goes on from them. Uses the
 * wllama module through wllama-chat-model.ts (the only importer).
 */
import { MetattlError } from '../common/errors.ts';
import { ggufBlobProblem } from './gguf-header.ts';
import { DownloadVerifyError, memoryPartialStore, resumableDownload, type PartialInfo } from './model-download.ts';
import { opfsAvailable, opfsPartialStore } from './opfs-partial-store.ts';
import { loadWllamaLibrary } from './wllama-chat-model.ts';

/** One model in browser storage. */
export interface StoredModel {
  /** Where it came from: its download URL, or `file:///<name>` for a picked file (also its key). */
  url: string;
  /** Its file name (the model's name in run settings). */
  name: string;
  sizeBytes: number;
}

/** A suggested small instruct model (public download address; fetched only when asked). */
export interface SuggestedModel {
  label: string;
  url: string;
  /** Download size, MB (10⁶ bytes). */
  sizeMb: number;
  licence: string;
}

/** Small instruct models that run in a browser tab (GGUF on Hugging Face). */
export const SUGGESTED_MODELS: readonly SuggestedModel[] = [
  { label: 'SmolLM2-135M-Instruct (Q8_0)', url: 'https://huggingface.co/bartowski/SmolLM2-135M-Instruct-GGUF/resolve/main/SmolLM2-135M-Instruct-Q8_0.gguf', sizeMb: 145, licence: 'Apache-2.0' },
  { label: 'SmolLM2-360M-Instruct (Q8_0)', url: 'https://huggingface.co/bartowski/SmolLM2-360M-Instruct-GGUF/resolve/main/SmolLM2-360M-Instruct-Q8_0.gguf', sizeMb: 386, licence: 'Apache-2.0' },
  { label: 'Qwen2.5-0.5B-Instruct (Q4_K_M)', url: 'https://huggingface.co/Qwen/Qwen2.5-0.5B-Instruct-GGUF/resolve/main/qwen2.5-0.5b-instruct-q4_k_m.gguf', sizeMb: 491, licence: 'Apache-2.0' },
];

/**
 * The browser refused a model file's write (quota reached); nothing was kept of this model. Not the
 * store's StorageFullError (store/interface.ts): that one is a run, story or setting not saved, and
 * its advice is to delete those; this one is the model cache, and its advice is to remove a model.
 */
export class ModelStorageFullError extends MetattlError {
  override readonly name = 'ModelStorageFullError';
  constructor(name: string) {
    super('model_storage_full', `Browser storage is full: ${name} was not kept (your other models are untouched). Remove a model below or free space for this site, then try again.`);
  }
}

/** The file name at the end of a URL (without its query). */
export function modelNameOf(url: string): string {
  return decodeURIComponent(url.split('?')[0]!.split('/').pop() ?? url);
}

const fileUrl = (name: string): string => `file:///${encodeURIComponent(name)}`;

function isQuota(error: unknown): boolean {
  const e = error as { name?: string; message?: string } | null;
  return e?.name === 'QuotaExceededError' || /quota|no space|storage.*full/i.test(e?.message ?? '');
}

async function manager() {
  const { ModelManager } = await loadWllamaLibrary();
  return new ModelManager({ logger: { debug: () => {}, log: () => {}, warn: () => {}, error: () => {} } });
}

/** Every complete model in storage, by name. */
export async function listStoredModels(): Promise<StoredModel[]> {
  const models = await (await manager()).getModels();
  return models.map((m) => ({ url: m.url, name: modelNameOf(m.url), sizeBytes: m.size })).sort((a, b) => a.name.localeCompare(b.name));
}

/** What is kept of an unfinished URL download (resumable: Download goes on from it). */
export type UnfinishedDownload = PartialInfo;

/** The unfinished downloads kept in this browser (empty where it cannot keep them). */
export async function listUnfinishedDownloads(): Promise<UnfinishedDownload[]> {
  return opfsAvailable() ? (await opfsPartialStore().list()).sort((a, b) => a.url.localeCompare(b.url)) : [];
}

/** Drop what is kept of an unfinished download. */
export async function discardUnfinishedDownload(url: string): Promise<void> {
  if (opfsAvailable()) await opfsPartialStore().remove(url);
}

/**
 * Download a model into storage (kept across reloads), reporting bytes as they arrive. Resumable
 * (model-download.ts): the bytes received are kept in the Origin Private File System as they
 * arrive, and a later call for the same URL — after Stop, a dropped connection or a reload —
 * asks only for the rest with a Range request (a server without Range sends the whole file
 * again). The finished file is checked (size, GGUF header and length: gguf-header.ts), then moved into wllama's cache. Each
 * shard of a split model (`…-00001-of-0000N.gguf`) is downloaded in turn.
 * @throws ModelStorageFullError when storage is full (nothing of this model is kept); Error for a URL
 *   that is not a `.gguf` file, a refused request, or a connection lost three times in a row
 *   (what arrived stays kept); DOMException AbortError when `signal` aborts (what arrived stays
 *   kept); DownloadVerifyError for a finished file that is not GGUF or not the size named.
 */
export async function downloadModel(url: string, options: { onProgress?: (loadedBytes: number, totalBytes: number) => void; signal?: AbortSignal; fetch?: typeof fetch } = {}): Promise<StoredModel> {
  if (!/\.gguf$/i.test(new URL(url).pathname)) throw new Error(`${url} is not a .gguf file: the address must end with .gguf.`);
  const { ModelManager } = await loadWllamaLibrary();
  const shards = ModelManager.parseModelUrl(url);
  const partial = opfsAvailable() ? opfsPartialStore() : memoryPartialStore();
  const cache = (await manager()).cacheManager;
  let done = 0;
  let size = 0;
  try {
    for (const shard of shards) {
      const file = await resumableDownload(shard, {
        store: partial,
        check: ggufBlobProblem,
        ...(options.fetch ? { fetch: options.fetch } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
        onProgress: (loaded, total) => options.onProgress?.(done + loaded, total > 0 ? done + total : 0),
      });
      await cache.write(await cache.getNameFromURL(shard), file.blob.stream(), { originalURL: shard, originalSize: file.sizeBytes, etag: '' });
      await partial.remove(shard);
      done += file.sizeBytes;
      size += file.sizeBytes;
    }
  } catch (error) {
    if (isQuota(error)) {
      await Promise.all(shards.map((s) => partial.remove(s).catch(() => undefined)));
      await removeStoredModel(url).catch(() => undefined);
      throw new ModelStorageFullError(modelNameOf(url));
    }
    throw error;
  }
  return { url, name: modelNameOf(url), sizeBytes: size };
}

/**
 * Copy a picked or dropped GGUF file into storage.
 * @throws ModelStorageFullError when storage is full (nothing of it is kept); Error for a file that is
 *   not a whole GGUF model (gguf-header.ts: not "GGUF", a damaged header, cut short), saying what is wrong
 */
export async function storeModelFile(file: Blob, name: string): Promise<StoredModel> {
  const problem = await ggufBlobProblem(file);
  if (problem !== null) throw new Error(`${name} is not a usable GGUF model file: ${problem}. Nothing of it was kept.`);
  const url = fileUrl(name);
  const models = await manager();
  const cache = models.cacheManager;
  try {
    await cache.write(await cache.getNameFromURL(url), file.stream(), { originalURL: url, originalSize: file.size, etag: '' });
  } catch (error) {
    await removeStoredModel(url).catch(() => undefined);
    if (isQuota(error)) throw new ModelStorageFullError(name);
    throw error;
  }
  return { url, name, sizeBytes: file.size };
}

/** The model's file(s) from storage, in shard order. @throws Error when it is not stored */
export async function openStoredModel(url: string): Promise<Blob[]> {
  const model = (await (await manager()).getModels()).find((m) => m.url === url);
  if (!model) throw new Error(`The local model ${modelNameOf(url)} is not in this browser's storage: load it again in Settings.`);
  return model.open();
}

/** Remove a model (all its files, and a half-written one) from storage. */
export async function removeStoredModel(url: string): Promise<void> {
  const cache = (await manager()).cacheManager;
  await cache.deleteMany((entry) => entry.metadata.originalURL === url);
  const key = await cache.getNameFromURL(url);
  await cache.delete(key).catch(() => undefined);
}

/** True when a failed `downloadModel` kept its bytes (Stop, a lost connection), false when it dropped them (storage full, a bad file). */
export function isResumable(error: unknown): boolean {
  return opfsAvailable() && !(error instanceof ModelStorageFullError) && !(error instanceof DownloadVerifyError);
}
