/**
 * The worker side of the engine protocol (protocol.ts): one engine per Worker / worker_thread,
 * driven by requests, answered by responses. Shared by both worker entries; it imports the
 * engine and so ifvms, and must only be reached from worker entries, never from the page's
 * main chunk.
 */
import { EngineError } from './errors.ts';
import type { Engine } from './interface.ts';
import { toWireError, type EngineRequest, type EngineResponse } from './protocol.ts';
import { loadStory } from './zvm-engine.ts';

/** Worker-side state: at most one engine per worker. */
export interface WorkerState {
  engine: Engine | null;
}

/**
 * Serve one request in the worker, posting its responses through `post`: one for every request
 * but `batch`, which posts one `batch-result` per step as soon as the step has run (then the next
 * step starts at once; the proxy's watchdog is re-armed by each message). Never throws: errors
 * become an `error` response, which ends a batch.
 */
export function serveEngineRequest(state: WorkerState, request: EngineRequest, post: (response: EngineResponse) => void): void {
  if (request.type !== 'batch') return post(handleEngineRequest(state, request));
  const { id, commands } = request;
  try {
    const engine = state.engine;
    if (!engine) throw new EngineError('no_input_pending', 'No story is loaded in this worker.');
    if (commands.length === 0) throw new EngineError('no_input_pending', 'A batch needs at least one command.');
    for (let index = 0; index < commands.length; index++) {
      const result = engine.step(commands[index]!);
      const last = index === commands.length - 1 || result.done || result.fault !== null;
      post({ type: 'batch-result', id, index, result, last });
      if (last) return;
    }
  } catch (error) {
    post({ type: 'error', id, error: toWireError(error) });
  }
}

/** Handle one single-response request in the worker; never throws (errors become `error`
 * responses). A `batch` is served by `serveEngineRequest` and is refused here. */
export function handleEngineRequest(state: WorkerState, request: EngineRequest): EngineResponse {
  const { id } = request;
  try {
    if (request.type === 'load') {
      state.engine = loadStory(request.bytes, request.options);
      return { type: 'loaded', id, info: state.engine.info, start: state.engine.start };
    }
    const engine = state.engine;
    if (!engine) throw new EngineError('no_input_pending', 'No story is loaded in this worker.');
    switch (request.type) {
      case 'step':
        return { type: 'result', id, result: engine.step(request.command) };
      case 'batch':
        throw new EngineError('worker_failed', 'A batch has several responses: use serveEngineRequest.');
      case 'snapshot':
        return { type: 'snapshot', id, snapshot: engine.snapshot() };
      case 'restore':
        return { type: 'result', id, result: engine.restore(request.snapshot) };
      case 'reset':
        return { type: 'result', id, result: engine.reset() };
    }
  } catch (error) {
    return { type: 'error', id, error: toWireError(error) };
  }
}
