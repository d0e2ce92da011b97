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

/** Handle one request in the worker; never throws (errors become `error` responses). */
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
