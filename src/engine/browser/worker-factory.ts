/** Browser `WorkerFactory`: one module Worker per engine (the UI thread never runs Z-code). */
import type { WorkerFactory } from '../engine-proxy.ts';

export const createBrowserWorker: WorkerFactory = () => {
  const worker = new Worker(new URL('./engine-worker.ts', import.meta.url), { type: 'module', name: 'metattl-engine' });
  return {
    postMessage: (message) => worker.postMessage(message),
    listen(onMessage, onError) {
      worker.onmessage = (event) => onMessage(event.data);
      worker.onerror = (event) => {
        event.preventDefault();
        onError(new Error(event.message || 'worker error'));
      };
      worker.onmessageerror = () => onError(new Error('a message could not be decoded'));
    },
    terminate: () => worker.terminate(),
  };
};
