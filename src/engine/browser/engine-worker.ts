/** Module Web Worker entry: runs one engine and answers protocol requests (protocol.ts). */
import { handleEngineRequest, isEngineRequest, type WorkerState } from '../protocol.ts';

const state: WorkerState = { engine: null };
const scope = self as unknown as { onmessage: ((e: MessageEvent) => void) | null; postMessage(m: unknown): void };
scope.onmessage = (event: MessageEvent) => {
  if (isEngineRequest(event.data)) scope.postMessage(handleEngineRequest(state, event.data));
};
