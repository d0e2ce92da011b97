/**
 * Node `WorkerFactory`: one worker_thread per engine. The worker runs our TypeScript through tsx's
 * `tsImport` (resolved from this package, so it works from any current directory).
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { WorkerFactory } from '../engine-proxy.ts';

const require = createRequire(import.meta.url);
const tsxApi = pathToFileURL(join(dirname(require.resolve('tsx/package.json')), 'dist/esm/api/index.mjs')).href;
const entry = new URL('./engine-worker.ts', import.meta.url).href;
/** A CommonJS bootstrap that loads the TypeScript worker entry through tsx. */
const bootstrap = `import(${JSON.stringify(tsxApi)}).then((tsx) => tsx.tsImport(${JSON.stringify(entry)}, ${JSON.stringify(entry)}))`;

export const createNodeWorker: WorkerFactory = () => {
  const worker = new Worker(bootstrap, { eval: true });
  worker.unref();
  return {
    postMessage: (message) => worker.postMessage(message),
    listen(onMessage, onError) {
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', (code) => {
        if (code !== 0 && code !== 1) onError(new Error(`worker exited with code ${code}`));
      });
    },
    terminate: () => void worker.terminate(),
  };
};
