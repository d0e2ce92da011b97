/** worker_threads entry: runs one engine and answers protocol requests (protocol.ts, worker-handler.ts). */
import { parentPort } from 'node:worker_threads';
import { isEngineRequest } from '../protocol.ts';
import { serveEngineRequest, type WorkerState } from '../worker-handler.ts';

const state: WorkerState = { engine: null };
// ifvms reports a VM exception with console.log(error) before handing it to Glk; the engine already
// returns it as an `interpreter_error` fault, so the stack trace must not reach the CLI's stdout.
console.log = () => undefined;
parentPort?.on('message', (data: unknown) => {
  if (isEngineRequest(data)) serveEngineRequest(state, data, (response) => parentPort?.postMessage(response));
});
