/**
 * Resumable model downloads (model-download.ts) against a local HTTP server: a connection dropped
 * mid-file goes on with `Range: bytes=<kept>-` + `If-Range`, a Stop (as a reload) keeps the bytes
 * and the next call fetches only the rest, a server without Range support restarts cleanly from
 * byte 0, and a finished file that is not GGUF is refused with nothing kept. Every result is
 * compared byte for byte with the served file.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { DownloadVerifyError, memoryPartialStore, resumableDownload } from './model-download.ts';

/** 1 MiB: "GGUF" then a deterministic byte pattern. */
const FILE = Buffer.alloc(1 << 20, 0);
FILE.write('GGUF', 0, 'latin1');
for (let i = 4; i < FILE.length; i++) FILE[i] = (i * 31 + (i >> 8)) & 0xff;
const ETAG = '"v1-1048576"';

interface Served {
  url: string;
  requests: { range: string | undefined; ifRange: string | undefined }[];
  close(): Promise<void>;
}

let served: Served | null = null;
afterEach(async () => {
  await served?.close();
  served = null;
});

/**
 * Serves `body` at /model.gguf. `ranges`: answer `Range: bytes=N-` with 206; `dropAfter`: on the
 * first `drops` requests, send that many bytes of the answer, then cut the connection.
 */
async function serve(options: { body?: Buffer; ranges: boolean; dropAfter?: number; drops?: number }): Promise<Served> {
  const body = options.body ?? FILE;
  const requests: Served['requests'] = [];
  let drops = options.drops ?? 0;
  const server: Server = createServer((req: IncomingMessage, res) => {
    requests.push({ range: req.headers.range, ifRange: req.headers['if-range'] as string | undefined });
    const m = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
    const useRange = options.ranges && m !== null && (req.headers['if-range'] === undefined || req.headers['if-range'] === ETAG);
    const start = useRange ? Number(m![1]) : 0;
    const part = body.subarray(start);
    res.writeHead(useRange ? 206 : 200, {
      'content-length': part.length,
      etag: ETAG,
      'content-type': 'application/octet-stream',
      ...(options.ranges ? { 'accept-ranges': 'bytes' } : {}),
      ...(useRange ? { 'content-range': `bytes ${start}-${body.length - 1}/${body.length}` } : {}),
    });
    if (drops > 0 && options.dropAfter !== undefined) {
      drops--;
      res.write(part.subarray(0, options.dropAfter));
      setTimeout(() => res.socket?.destroy(), 100);
      return;
    }
    res.end(part);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/model.gguf`;
  return { url, requests, close: () => new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  }) };
}

const bytesOf = async (blob: Blob): Promise<Buffer> => Buffer.from(await blob.arrayBuffer());
const noWait = (): number => 0;

describe('resumable model downloads', () => {
  it('a connection dropped mid-file goes on with a Range request from the kept bytes, and the file is whole', async () => {
    served = await serve({ ranges: true, dropAfter: 300_000, drops: 1 });
    const store = memoryPartialStore();
    const progress: number[] = [];
    const file = await resumableDownload(served.url, { store, chunkBytes: 64 << 10, retryDelayMs: noWait, onProgress: (loaded, total) => {
      expect(total).toBe(FILE.length);
      progress.push(loaded);
    } });
    expect(served.requests).toHaveLength(2);
    expect(served.requests[0]).toEqual({ range: undefined, ifRange: undefined });
    // The second asks for exactly what was not kept (whatever of the 300,000 bytes arrived), with the first answer's ETag.
    const kept = Number(/^bytes=(\d+)-$/.exec(served.requests[1]!.range ?? '')?.[1]);
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThanOrEqual(300_000);
    expect(served.requests[1]!.ifRange).toBe(ETAG);
    expect([file.sizeBytes, file.fetchedBytes, file.resumes, file.restarts]).toEqual([FILE.length, FILE.length, 1, 0]);
    expect((await bytesOf(file.blob)).equals(FILE)).toBe(true);
    // The progress never goes back and ends at the full size.
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(progress.at(-1)).toBe(FILE.length);
  });

  it('a download stopped part-way (as by Stop or a reload) keeps its bytes; the next call fetches only the rest', async () => {
    served = await serve({ ranges: true, dropAfter: 400_000, drops: 1 });
    const store = memoryPartialStore();
    const stop = new AbortController();
    // The first answer stalls after 400,000 bytes: Stop then.
    const first = resumableDownload(served.url, { store, chunkBytes: 64 << 10, signal: stop.signal, retryDelayMs: () => 60_000, onProgress: (loaded) => {
      if (loaded >= 300_000) stop.abort();
    } });
    await expect(first).rejects.toMatchObject({ name: 'AbortError' });
    const kept = (await store.info(served.url))!;
    expect(kept.keptBytes).toBeGreaterThanOrEqual(300_000);
    expect(kept).toMatchObject({ url: served.url, validator: ETAG, totalBytes: FILE.length });
    expect(await store.list()).toEqual([kept]);

    const progress: number[] = [];
    const file = await resumableDownload(served.url, { store, onProgress: (loaded) => progress.push(loaded) });
    expect(served.requests.at(-1)).toEqual({ range: `bytes=${kept.keptBytes}-`, ifRange: ETAG });
    expect([file.fetchedBytes, file.resumes, file.restarts]).toEqual([FILE.length - kept.keptBytes, 1, 0]);
    expect(progress[0]).toBeGreaterThan(kept.keptBytes);
    expect((await bytesOf(file.blob)).equals(FILE)).toBe(true);
  });

  it('a server without Range support restarts cleanly from byte 0 after a drop', async () => {
    served = await serve({ ranges: false, dropAfter: 300_000, drops: 1 });
    const store = memoryPartialStore();
    const file = await resumableDownload(served.url, { store, chunkBytes: 64 << 10, retryDelayMs: noWait });
    expect(served.requests).toHaveLength(2);
    expect(served.requests[1]!.range).toMatch(/^bytes=\d+-$/);
    // Answered 200 with the whole file: the kept bytes were dropped, not mixed in.
    expect([file.sizeBytes, file.resumes, file.restarts]).toEqual([FILE.length, 0, 1]);
    expect(file.fetchedBytes).toBeGreaterThan(FILE.length);
    expect((await bytesOf(file.blob)).equals(FILE)).toBe(true);
    await served.close();

    // One that cuts every answer: three restarts from byte 0, then the error (never for ever).
    served = await serve({ ranges: false, dropAfter: 300_000, drops: 99 });
    await expect(resumableDownload(served.url, { store: memoryPartialStore(), retryDelayMs: noWait })).rejects.toThrow();
    expect(served.requests).toHaveLength(4);
  });

  it('gives up after three attempts in a row that bring nothing, keeping what came; a finished file that is not GGUF is refused', async () => {
    served = await serve({ ranges: true, dropAfter: 0, drops: 99 });
    const store = memoryPartialStore();
    await expect(resumableDownload(served.url, { store, retryDelayMs: noWait })).rejects.toThrow();
    expect(served.requests).toHaveLength(3);
    await served.close();

    const html = Buffer.from('<!doctype html><title>Sign in</title>');
    served = await serve({ body: html, ranges: true });
    const other = memoryPartialStore();
    const refused = resumableDownload(served.url, { store: other });
    await expect(refused).rejects.toBeInstanceOf(DownloadVerifyError);
    await expect(refused).rejects.toThrow('does not start with "GGUF"');
    expect(await other.list()).toEqual([]);
  });

  it('a refused request names its HTTP status', async () => {
    const server = createServer((_req, res) => res.writeHead(404, 'Not Found').end('no'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    served = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/x.gguf`, requests: [], close: () => new Promise((r) => server.close(() => r())) };
    await expect(resumableDownload(served.url, { store: memoryPartialStore() })).rejects.toThrow('HTTP 404 Not Found');
  });
});
