/**
 * Serves the built page (`dist/`, or `--page-dir`) from the room server: files with their content
 * types, any other path answered with `index.html` (the page routes itself), a path outside the
 * folder refused. Every answer carries `PAGE_HEADERS`: cross-origin isolation (COOP + COEP, as
 * vite.config.ts's dev and preview servers send, so the in-page model may run multi-threaded where
 * the browser allows it) and `nosniff`.
 */
import { createReadStream, existsSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, resolve, sep } from 'node:path';

/** Headers on every answer of the room server (page, API, model). */
export const PAGE_HEADERS = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'X-Content-Type-Options': 'nosniff',
} as const;

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8', '.map': 'application/json; charset=utf-8', '.svg': 'image/svg+xml', '.png': 'image/png', '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon', '.webp': 'image/webp', '.woff2': 'font/woff2', '.woff': 'font/woff', '.wasm': 'application/wasm', '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json', '.z5': 'application/octet-stream', '.z8': 'application/octet-stream', '.z3': 'application/octet-stream', '.gguf': 'application/octet-stream',
};

/** Whether `dir` holds a built page (its index.html). */
export const pageBuilt = (dir: string): boolean => existsSync(join(dir, 'index.html'));

/** Answers a GET/HEAD for the page at `pathname` from `dir`. */
export function servePage(dir: string, pathname: string, req: IncomingMessage, res: ServerResponse): void {
  const root = resolve(dir);
  if (!pageBuilt(root)) {
    res.writeHead(503, { ...PAGE_HEADERS, 'Content-Type': 'text/plain; charset=utf-8' });
    res.end('The page is not built: run "npm run build" in the project, then start the room again.\n');
    return;
  }
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    decoded = '/';
  }
  const file = resolve(root, `.${normalize(`/${decoded}`)}`);
  const inside = file === root || file.startsWith(root + sep);
  const found = inside && existsSync(file) && statSync(file).isFile();
  const path = found ? file : join(root, 'index.html');
  const ext = extname(path).toLowerCase();
  const cache = !found || ext === '.html' ? 'no-cache' : decoded.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'public, max-age=300';
  res.writeHead(200, { ...PAGE_HEADERS, 'Content-Type': TYPES[ext] ?? 'application/octet-stream', 'Content-Length': statSync(path).size, 'Cache-Control': cache });
  if (req.method === 'HEAD') res.end();
  else createReadStream(path).pipe(res);
}
