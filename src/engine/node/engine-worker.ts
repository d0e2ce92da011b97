/** worker_threads entry: runs one engine and answers protocol requests (protocol.ts). */
import { parentPort } from 'node:worker_threads';
import { handleEngineRequest, isEngineRequest, type WorkerState } from '../protocol.ts';

const state: WorkerState = { engine: null };
parentPort?.on('message', (data: unknown) => {
  if (isEngineRequest(data)) parentPort?.postMessage(handleEngineRequest(state, data));
});
