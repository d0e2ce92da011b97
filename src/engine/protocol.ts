/**
 * The typed message protocol between an `EngineProxy` and the engine running in a Worker
 * (browser) or worker_thread (Node). Requests and responses are discriminated by `type` and
 * matched by `id`; everything is structured-cloneable. Every request gets exactly one final
 * response, except `batch`, which gets one `batch-result` per step played (the last one marked
 * `last`) or an `error`; the worker posts them as it goes, so a batch costs no round trip per
 * step. The worker side is `worker-handler.ts`;
 * this module must not import the engine (ifvms), so the page's main chunk, which holds the proxy,
 * does not carry it.
 */
import { EngineError, StoryFileError } from './errors.ts';
import type { EngineErrorCode, EngineSnapshot, LoadOptions, StepResult, StoryFileErrorCode, StoryInfo } from './interface.ts';

export type EngineRequest =
  | { type: 'load'; id: number; bytes: Uint8Array; options: LoadOptions }
  | { type: 'step'; id: number; command: string }
  /** Play `commands` in order, stopping after the first result that is `done` or has a `fault`. */
  | { type: 'batch'; id: number; commands: string[] }
  | { type: 'snapshot'; id: number }
  | { type: 'restore'; id: number; snapshot: EngineSnapshot }
  | { type: 'reset'; id: number };

/** A thrown error, flattened for transport. */
export interface WireError {
  name: string;
  code: string | null;
  message: string;
}

export type EngineResponse =
  | { type: 'loaded'; id: number; info: StoryInfo; start: StepResult }
  | { type: 'result'; id: number; result: StepResult }
  /** One step of a `batch`: `index` into its commands; `last` on its final message (the list ran
   * out or `result` is done/faulted). */
  | { type: 'batch-result'; id: number; index: number; result: StepResult; last: boolean }
  | { type: 'snapshot'; id: number; snapshot: EngineSnapshot }
  | { type: 'error'; id: number; error: WireError };

/** Narrow an unknown message to a request (never cast `event.data`). */
export function isEngineRequest(data: unknown): data is EngineRequest {
  if (typeof data !== 'object' || data === null) return false;
  const d = data as { type?: unknown; id?: unknown };
  return typeof d.id === 'number' && ['load', 'step', 'batch', 'snapshot', 'restore', 'reset'].includes(String(d.type));
}

/** Narrow an unknown message to a response. */
export function isEngineResponse(data: unknown): data is EngineResponse {
  if (typeof data !== 'object' || data === null) return false;
  const d = data as { type?: unknown; id?: unknown };
  return typeof d.id === 'number' && ['loaded', 'result', 'batch-result', 'snapshot', 'error'].includes(String(d.type));
}

export function toWireError(error: unknown): WireError {
  if (error instanceof StoryFileError || error instanceof EngineError) {
    return { name: error.name, code: error.code, message: error.message };
  }
  const e = error instanceof Error ? error : new Error(String(error));
  return { name: e.name, code: null, message: e.message };
}

/** Rebuild the typed error on the proxy side. */
export function fromWireError(wire: WireError): Error {
  if (wire.name === 'StoryFileError') return new StoryFileError(wire.code as StoryFileErrorCode, wire.message);
  if (wire.name === 'EngineError') return new EngineError(wire.code as EngineErrorCode, wire.message);
  const e = new Error(wire.message);
  e.name = wire.name;
  return e;
}
