/**
 * Node `WorkerFactory`: one worker_thread per engine. Built (build/cli/, scripts/build-cli.mjs),
 * this module sits beside the built worker entry `engine-worker.js` and starts it directly; run
 * from the TypeScript sources (tests, or the CLI through tsx), the worker runs our TypeScript
 * through tsx's `tsImport` (resolved from this package, so it works from any current directory).
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { WorkerFactory } from '../engine-proxy.ts';

/** True when this code runs from the TypeScript sources, false in the built CLI. */
const fromSources = import.meta.url.endsWith('.ts');

/** A Worker for the engine: the built entry, or the TypeScript entry loaded through tsx. */
function startWorker(): Worker {
  if (!fromSources) return new Worker(new URL('./engine-worker.js', import.meta.url));
  const require = createRequire(import.meta.url);
  const tsxApi = pathToFileURL(join(dirname(require.resolve('tsx/package.json')), 'dist/esm/api/index.mjs')).href;
  const entry = new URL('./engine-worker.ts', import.meta.url).href;
  // A CommonJS bootstrap that loads the TypeScript worker entry through tsx.
  const bootstrap = `import(${JSON.stringify(tsxApi)}).then((tsx) => tsx.tsImport(${JSON.stringify(entry)}, ${JSON.stringify(entry)}))`;
  return new Worker(bootstrap, { eval: true });
}

export const createNodeWorker: WorkerFactory = () => {
  const worker = startWorker();
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
