/** Module Web Worker entry: runs one engine and answers protocol requests (protocol.ts, worker-handler.ts). */
import { isEngineRequest } from '../protocol.ts';
import { serveEngineRequest, type WorkerState } from '../worker-handler.ts';

const state: WorkerState = { engine: null };
// ifvms logs VM exceptions with console.log; the engine returns them as `interpreter_error` faults.
console.log = () => undefined;
const scope = self as unknown as { onmessage: ((e: MessageEvent) => void) | null; postMessage(m: unknown): void };
scope.onmessage = (event: MessageEvent) => {
  if (isEngineRequest(event.data)) serveEngineRequest(state, event.data, (response) => scope.postMessage(response));
};
