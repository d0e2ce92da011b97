/**
 * Node `WorkerFactory`: one worker_thread per engine. Built (build/cli/, scripts/build-cli.mjs),
 * this module sits beside the built worker entry `engine-worker.js` and starts it directly; run
 * from the TypeScript sources (tests, or the CLI through tsx), the worker runs our TypeScript
 * through tsx's `tsImport` (resolved from this package, so it works from any current directory).
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';
import { type ResourceLimits, Worker } from 'node:worker_threads';
import type { WorkerFactory } from '../engine-proxy.ts';

/** True when this code runs from the TypeScript sources, false in the built CLI. */
const fromSources = import.meta.url.endsWith('.ts');

/** A Worker for the engine: the built entry, or the TypeScript entry loaded through tsx. */
function startWorker(resourceLimits: ResourceLimits | undefined): Worker {
  if (!fromSources) return new Worker(new URL('./engine-worker.js', import.meta.url), { resourceLimits });
  const require = createRequire(import.meta.url);
  const tsxApi = pathToFileURL(join(dirname(require.resolve('tsx/package.json')), 'dist/esm/api/index.mjs')).href;
  const entry = new URL('./engine-worker.ts', import.meta.url).href;
  // A CommonJS bootstrap that loads the TypeScript worker entry through tsx.
  const bootstrap = `import(${JSON.stringify(tsxApi)}).then((tsx) => tsx.tsImport(${JSON.stringify(entry)}, ${JSON.stringify(entry)}))`;
  return new Worker(bootstrap, { eval: true, resourceLimits });
}

/**
 * A Node `WorkerFactory` whose workers get `resourceLimits` (e.g. `{ maxOldGenerationSizeMb: 96 }`;
 * Node's defaults when undefined). A worker that exits with a code other than 0 or 1 (e.g. out of
 * memory) is reported through `onError`.
 */
export function nodeWorkerFactory(resourceLimits?: ResourceLimits): WorkerFactory {
  return () => {
    const worker = startWorker(resourceLimits);
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
}

/** The engine worker factory the CLI uses (Node's default resource limits). */
export const createNodeWorker: WorkerFactory = nodeWorkerFactory();
