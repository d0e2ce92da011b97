/**
 * Serves dist/ under the sub-path /sub/path/ (proving the build works from any sub-path), the
 * shared Jericho stories (SHARED_DIR or ../shared) under /sub/path/local-stories/, and the real
 * small model's directory (METATTL_MODELS_DIR, default ~/.cache/metattl-models) under
 * /sub/path/local-models/ for tests (with Range support, and a connection cut or stalled part-way
 * on request: see serveModel). Every answer is cross-origin isolated (COOP + COEP), as
 * docs/local-models.md says to host the build, so the in-page local model runs multi-threaded.
 * Usage: tsx e2e/serve-dist.ts PORT
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { readFile, readdir } from 'node:fs/promises';
import { homedir } from 'node:os';
import { extname, normalize, resolve } from 'node:path';

const port = Number(process.argv[2] ?? 4317);
const root = resolve(import.meta.dirname, '../dist');
const stories = resolve(process.env.SHARED_DIR ?? resolve(import.meta.dirname, '../../shared'), 'stories');
const models = process.env.METATTL_MODELS_DIR ?? resolve(homedir(), '.cache', 'metattl-models');
const PREFIX = '/sub/path/';
const ISOLATION = { 'cross-origin-opener-policy': 'same-origin', 'cross-origin-embedder-policy': 'require-corp' };
const TYPES: Record<string, string> = {
  '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json',
  '.svg': 'image/svg+xml', '.png': 'image/png', '.map': 'application/json', '.wasm': 'application/wasm',
};

/**
 * A model file, with Range support (`Range: bytes=N-` → 206, as Hugging Face's CDN) unless the
 * query has `norange`. For the resumable-download tests, a request without Range is cut at byte
 * `drop-after` (the connection destroyed) or left hanging there (`stall-after`).
 */
function serveModel(req: IncomingMessage, res: ServerResponse, body: Buffer, query: URLSearchParams): void {
  const m = query.has('norange') ? null : /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
  const start = m ? Number(m[1]) : 0;
  if (start >= body.length && m) {
    res.writeHead(416, { 'content-range': `bytes */${body.length}` }).end();
    return;
  }
  const part = body.subarray(start);
  res.writeHead(m ? 206 : 200, {
    'content-type': 'application/octet-stream', 'content-length': part.length, etag: `"${body.length}"`,
    ...(query.has('norange') ? {} : { 'accept-ranges': 'bytes' }), ...(m ? { 'content-range': `bytes ${start}-${body.length - 1}/${body.length}` } : {}),
  });
  if (req.method === 'HEAD') return void res.end();
  const cut = req.headers.range ? null : Number(query.get('drop-after') ?? query.get('stall-after') ?? NaN);
  if (cut === null || !Number.isFinite(cut)) return void res.end(part);
  res.write(part.subarray(0, cut));
  if (query.has('drop-after')) setTimeout(() => res.socket?.destroy(), 200);
}

createServer(async (req, res) => {
  const path = decodeURIComponent((req.url ?? '/').split('?')[0] ?? '/');
  if (!path.startsWith(PREFIX)) {
    res.writeHead(404).end('outside the sub-path');
    return;
  }
  const rel = path.slice(PREFIX.length);
  for (const [name, value] of Object.entries(ISOLATION)) res.setHeader(name, value);
  try {
    if (rel.startsWith('local-models/') && /^[\w.-]+\.gguf$/.test(rel.slice('local-models/'.length))) {
      serveModel(req, res, await readFile(resolve(models, rel.slice('local-models/'.length))), new URL(req.url ?? '/', 'http://x').searchParams);
      return;
    }
    if (rel.startsWith('local-stories/')) {
      const name = rel.slice('local-stories/'.length);
      if (name === '' || name === 'index.json') {
        const files = (await readdir(stories)).filter((f) => /\.(z[1-8]|zblorb)$/i.test(f));
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(files));
      } else {
        res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(await readFile(resolve(stories, normalize(name).replace(/^(\.\.[/\\])+/, ''))));
      }
      return;
    }
    const file = resolve(root, normalize(rel || 'index.html').replace(/^(\.\.[/\\])+/, ''));
    if (!file.startsWith(root)) throw new Error('outside root');
    const body = await readFile(file);
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(body);
  } catch {
    res.writeHead(404).end('not found');
  }
}).listen(port, '127.0.0.1', () => console.log(`serving dist/ at http://127.0.0.1:${port}${PREFIX}`));
