/**
 * Resumable model downloads: the bytes of a URL download are kept in `PartialStore` chunks as
 * they arrive, so a download cut by a network drop, Stop or a reload goes on from the kept bytes
 * with an HTTP Range request (RFC 9110 §14: `Range: bytes=N-`, `If-Range` with the first answer's
 * validator; 206 + `Content-Range` continues, 200 means the server sent the whole file again and
 * the kept bytes are dropped). The finished file is checked (size, GGUF magic) before it is
 * handed over. DOM-free: fetch and the chunk store are injected (opfs-partial-store.ts in the
 * page, an in-memory store in tests).
 */
import { MetattlError } from '../common/errors.ts';

/** What is kept of an unfinished download. */
export interface PartialInfo {
  url: string;
  /** The first answer's `ETag` (or else `Last-Modified`), sent back as `If-Range`; null when it had neither. */
  validator: string | null;
  /** The file's full size in bytes, null when the server never said. */
  totalBytes: number | null;
  /** Bytes kept so far (the sum of the chunks, in order from byte 0). */
  keptBytes: number;
}

/** Where the chunks of unfinished downloads are kept, by URL. */
export interface PartialStore {
  /** What is kept for `url`, null when nothing is. */
  info(url: string): Promise<PartialInfo | null>;
  /** Drop what is kept for `url` and start over with these facts (no bytes). */
  begin(url: string, facts: { validator: string | null; totalBytes: number | null }): Promise<void>;
  /** Keep `bytes` after the bytes already kept (durable once it resolves). */
  append(url: string, bytes: Uint8Array): Promise<void>;
  /** Every kept byte, in order. */
  blob(url: string): Promise<Blob>;
  /** Drop what is kept for `url` (no error when nothing is). */
  remove(url: string): Promise<void>;
  /** Every unfinished download kept. */
  list(): Promise<PartialInfo[]>;
}

/** Options of `resumableDownload`. */
export interface DownloadOptions {
  store: PartialStore;
  /** The fetch to use (default the global one). */
  fetch?: typeof fetch;
  signal?: AbortSignal;
  /** Bytes kept (from byte 0) and the full size (0 when unknown), as bytes arrive. */
  onProgress?: (loadedBytes: number, totalBytes: number) => void;
  /** Bytes gathered before a chunk is written to the store (default 4 MiB). */
  chunkBytes?: number;
  /** Attempts in a row that bring no new byte — or restarts from byte 0 in all — before giving up (default 3). */
  maxStalledAttempts?: number;
  /** Wait before attempt n+1 after a dropped connection, ms (default 500·n). */
  retryDelayMs?: (attempt: number) => number;
  /** The file's first bytes must be these (default "GGUF"); null checks nothing. */
  magic?: string | null;
  /** What is wrong with the finished file (e.g. gguf-header.ts `ggufBlobProblem`), or null when it is usable; a problem refuses it, nothing kept. */
  check?: (blob: Blob) => Promise<string | null>;
}

/** The result of a finished, verified download. */
export interface DownloadedFile {
  blob: Blob;
  sizeBytes: number;
  /** Bytes fetched in this call (less than `sizeBytes` when it resumed). */
  fetchedBytes: number;
  /** Range requests answered with 206 (the download went on from kept bytes). */
  resumes: number;
  /** Times the kept bytes were dropped and the file fetched from byte 0 (a server without Range, a changed file). */
  restarts: number;
}

/** The finished file failed its check (wrong size, not GGUF); nothing of it is kept. */
export class DownloadVerifyError extends MetattlError {
  constructor(message: string) {
    super('download_verify', message);
    this.name = 'DownloadVerifyError';
  }
}

const abortError = (): DOMException => new DOMException('The download was stopped.', 'AbortError');

/** `bytes S-E/T` → { start, total } (total null for `*`), null when malformed. */
function contentRange(header: string | null): { start: number; total: number | null } | null {
  const m = /^bytes (\d+)-\d+\/(\d+|\*)$/.exec(header?.trim() ?? '');
  return m ? { start: Number(m[1]), total: m[2] === '*' ? null : Number(m[2]) } : null;
}

/** How a response starts the bytes: at `offset` (0 = the whole file again), or done, or start over. */
type Start = { offset: number; resumed: boolean } | 'complete' | 'restart';

async function startOf(response: Response, store: PartialStore, url: string, kept: PartialInfo | null): Promise<Start> {
  const from = kept?.keptBytes ?? 0;
  if (response.status === 206) {
    const range = contentRange(response.headers.get('content-range'));
    const sameTotal = kept?.totalBytes == null || range?.total == null || range.total === kept.totalBytes;
    if (range && range.start === from && sameTotal) return { offset: from, resumed: true };
    await response.body?.cancel();
    return 'restart';
  }
  if (response.status === 416 && from > 0) {
    await response.body?.cancel();
    // `bytes */N` with N = the bytes kept: everything was already here.
    const all = /^bytes \*\/(\d+)$/.exec(response.headers.get('content-range')?.trim() ?? '');
    return all && Number(all[1]) === from ? 'complete' : 'restart';
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new Error(`The download of ${url} failed: HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}.`);
  }
  // The whole file: a first request, or a server that ignores Range, or a file changed since.
  const length = Number(response.headers.get('content-length'));
  const validator = response.headers.get('etag') ?? response.headers.get('last-modified');
  await store.begin(url, { validator, totalBytes: Number.isInteger(length) && length > 0 ? length : null });
  return { offset: 0, resumed: false };
}

/**
 * Download `url` into `options.store`, going on from whatever is kept there, and return the whole
 * verified file; the caller moves it to its final place and then calls `store.remove(url)`.
 * @throws DOMException AbortError on `signal` (the bytes received stay kept: call again to
 *   resume); Error naming the HTTP status for a refused request; the last network error after
 *   `maxStalledAttempts` attempts in a row without a new byte (bytes kept); the store's
 *   QuotaExceededError at once (the caller drops what is kept); DownloadVerifyError
 *   when the finished file is not the size the server named, lacks the magic or fails
 *   `check` (nothing kept).
 */
export async function resumableDownload(url: string, options: DownloadOptions): Promise<DownloadedFile> {
  const { store, signal } = options;
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const maxStalled = options.maxStalledAttempts ?? 3;
  const delay = options.retryDelayMs ?? ((n: number) => 500 * n);
  const counts = { fetchedBytes: 0, resumes: 0, restarts: 0 };
  let stalled = 0;
  const stall = async (error: unknown): Promise<void> => {
    if (signal?.aborted) throw abortError();
    // Storage refused the bytes: trying again cannot help.
    if ((error as { name?: string } | null)?.name === 'QuotaExceededError' || ++stalled >= maxStalled) throw error;
    // A server without Range that keeps cutting the file would start over for ever.
    if (counts.restarts >= maxStalled) throw error;
    await wait(delay(stalled), signal);
  };
  for (;;) {
    if (signal?.aborted) throw abortError();
    const kept = await store.info(url);
    const from = kept?.keptBytes ?? 0;
    if (kept && kept.totalBytes !== null && from >= kept.totalBytes) break;
    const headers: Record<string, string> = {};
    if (kept && from > 0) {
      headers.range = `bytes=${from}-`;
      if (kept.validator) headers['if-range'] = kept.validator;
    }
    let response: Response;
    try {
      response = await doFetch(url, { headers, ...(signal ? { signal } : {}) });
    } catch (error) {
      await stall(error);
      continue;
    }
    const start = await startOf(response, store, url, kept);
    if (start === 'complete') break;
    if (start === 'restart') {
      await store.remove(url);
      counts.restarts++;
      continue;
    }
    if (start.resumed) counts.resumes++;
    else if (from > 0) counts.restarts++;
    const total = (await store.info(url))?.totalBytes ?? null;
    let offset = start.offset;
    try {
      offset = await pump(response, store, url, offset, options.chunkBytes ?? 4 << 20, (n) => options.onProgress?.(n, total ?? 0));
    } catch (error) {
      const now = (await store.info(url))?.keptBytes ?? start.offset;
      counts.fetchedBytes += now - start.offset;
      if (now > start.offset) stalled = 0;
      await stall(error);
      continue;
    }
    counts.fetchedBytes += offset - start.offset;
    // A body that ended cleanly before the named size (a server that closed early): go on from there.
    if (total === null || offset >= total) break;
    if (offset > start.offset) stalled = 0;
    await stall(new Error(`The download of ${url} ended after ${offset} of ${total} bytes.`));
  }
  return verify(url, store, options.magic === undefined ? 'GGUF' : options.magic, options.check ?? null, counts);
}

/**
 * Read `response`'s body into the store in chunks of `chunkBytes`, from byte `offset`; whatever
 * arrived is written even when the body fails (so it is kept).
 * @returns the bytes kept after the body ended; @throws the body's error after keeping what came
 */
async function pump(response: Response, store: PartialStore, url: string, offset: number, chunkBytes: number, progress: (keptBytes: number) => void): Promise<number> {
  if (!response.body) return offset;
  const reader = response.body.getReader();
  let parts: Uint8Array[] = [];
  let gathered = 0;
  const flush = async (): Promise<void> => {
    if (gathered === 0) return;
    const bytes = new Uint8Array(gathered);
    let at = 0;
    for (const p of parts) {
      bytes.set(p, at);
      at += p.byteLength;
    }
    parts = [];
    gathered = 0;
    await store.append(url, bytes);
  };
  let received = offset;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parts.push(value);
      gathered += value.byteLength;
      received += value.byteLength;
      if (gathered >= chunkBytes) await flush();
      progress(received);
    }
  } finally {
    await flush();
  }
  return received;
}

async function verify(url: string, store: PartialStore, magic: string | null, check: ((blob: Blob) => Promise<string | null>) | null, counts: Omit<DownloadedFile, 'blob' | 'sizeBytes'>): Promise<DownloadedFile> {
  const info = await store.info(url);
  const blob = await store.blob(url);
  const fail = async (why: string): Promise<never> => {
    await store.remove(url);
    throw new DownloadVerifyError(`The download of ${url} is not usable: ${why}; nothing of it was kept.`);
  };
  if (info?.totalBytes != null && blob.size !== info.totalBytes) await fail(`${blob.size} bytes arrived, the server named ${info.totalBytes}`);
  if (magic !== null && new TextDecoder().decode(await blob.slice(0, magic.length).arrayBuffer()) !== magic) await fail(`it does not start with "${magic}" (not a GGUF model file)`);
  const problem = check ? await check(blob) : null;
  if (problem !== null) await fail(problem);
  return { blob, sizeBytes: blob.size, ...counts };
}

function wait(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError());
    const timer = setTimeout(done, ms);
    function done(): void {
      signal?.removeEventListener('abort', stop);
      resolve();
    }
    function stop(): void {
      clearTimeout(timer);
      reject(abortError());
    }
    signal?.addEventListener('abort', stop, { once: true });
  });
}

/** A PartialStore in memory (kept only as long as the page or process): for tests, and where the page has no file storage. */
export function memoryPartialStore(): PartialStore {
  const kept = new Map<string, { validator: string | null; totalBytes: number | null; chunks: Uint8Array[] }>();
  const infoOf = (url: string): PartialInfo | null => {
    const k = kept.get(url);
    return k ? { url, validator: k.validator, totalBytes: k.totalBytes, keptBytes: k.chunks.reduce((n, c) => n + c.byteLength, 0) } : null;
  };
  return {
    info: async (url) => infoOf(url),
    begin: async (url, facts) => void kept.set(url, { ...facts, chunks: [] }),
    append: async (url, bytes) => {
      const k = kept.get(url);
      if (!k) throw new Error(`no download of ${url} was begun`);
      k.chunks.push(bytes);
    },
    blob: async (url) => new Blob((kept.get(url)?.chunks ?? []) as BlobPart[]),
    remove: async (url) => void kept.delete(url),
    list: async () => [...kept.keys()].map((url) => infoOf(url)!),
  };
}
