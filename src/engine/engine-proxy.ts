/**
 * `EngineProxy`: the asynchronous face of an engine that runs in its own Worker / worker_thread,
 * with a watchdog. ifvms compiles Z-code loops into JavaScript loops, so only terminating the
 * thread stops a runaway story: a step that does not answer within `stepTimeoutMs` ends with the
 * `interpreter_hang` fault and the worker is killed; `reset()` or `restore()` then starts a new
 * worker. DOM-free: the worker itself comes from an injected `WorkerFactory`.
 */
import { EngineError } from './errors.ts';
import type { EngineSnapshot, LoadOptions, StepResult, StoryInfo } from './interface.ts';
import { fromWireError, isEngineResponse, type EngineRequest, type EngineResponse } from './protocol.ts';

/** The minimal worker surface both environments provide. */
export interface WorkerPort {
  postMessage(message: EngineRequest): void;
  /** Register the message and fatal-error listeners (called once). */
  listen(onMessage: (data: unknown) => void, onError: (error: Error) => void): void;
  terminate(): void;
}

/** Creates a fresh engine worker (browser: module Worker; Node: worker_thread). */
export type WorkerFactory = () => WorkerPort;

export interface ProxyOptions {
  /** Watchdog budget for one step, ms (default 5,000). */
  stepTimeoutMs?: number;
  /** Budget for loading a story and running it to its first input, ms (default 15,000). */
  loadTimeoutMs?: number;
}

type Request = EngineRequest extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never;

export class EngineProxy {
  private worker: WorkerPort | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (r: EngineResponse) => void; reject: (e: Error) => void }>();
  private lastGood: StepResult;
  private readonly stepTimeoutMs: number;
  private readonly loadTimeoutMs: number;

  private constructor(
    private readonly factory: WorkerFactory,
    private readonly bytes: Uint8Array,
    private readonly options: LoadOptions,
    proxyOptions: ProxyOptions,
    readonly info: StoryInfo,
    readonly start: StepResult,
  ) {
    this.stepTimeoutMs = proxyOptions.stepTimeoutMs ?? 5_000;
    this.loadTimeoutMs = proxyOptions.loadTimeoutMs ?? 15_000;
    this.lastGood = start;
  }

  /**
   * Start a worker and load the story in it.
   * @throws StoryFileError for bad story files; EngineError('worker_failed') when the story does
   *   not reach its first input within loadTimeoutMs or the worker cannot start.
   */
  static async load(factory: WorkerFactory, bytes: Uint8Array, options: LoadOptions, proxyOptions: ProxyOptions = {}): Promise<EngineProxy> {
    const boot = new EngineProxy(factory, bytes, options, proxyOptions, null as never, null as never);
    const loaded = await boot.spawnAndLoad();
    const proxy = new EngineProxy(factory, bytes, options, proxyOptions, loaded.info, loaded.start);
    proxy.adopt(boot);
    return proxy;
  }

  get seed(): number {
    return this.options.seed;
  }

  /** Send one command; a hang or worker crash becomes a `fault` in the result, never a throw. */
  async step(command: string): Promise<StepResult> {
    if (!this.worker) throw new EngineError('game_over', 'The engine stopped after a fault: reset() or restore() first.');
    try {
      const response = await this.call({ type: 'step', command }, this.stepTimeoutMs);
      const result = this.expectResult(response);
      if (!result.fault) this.lastGood = result;
      return result;
    } catch (error) {
      if (error instanceof HangError || error instanceof WorkerCrash) {
        this.kill();
        return {
          ...this.lastGood, command, text: '', inputKind: null, done: true, endReason: null,
          fault: { kind: error instanceof HangError ? 'interpreter_hang' : 'interpreter_error', message: error.message },
        };
      }
      throw error;
    }
  }

  async snapshot(): Promise<EngineSnapshot> {
    const response = await this.call({ type: 'snapshot' }, this.stepTimeoutMs);
    if (response.type !== 'snapshot') throw new EngineError('worker_failed', `Unexpected reply "${response.type}" to snapshot`);
    return response.snapshot;
  }

  async restore(snapshot: EngineSnapshot): Promise<StepResult> {
    if (!this.worker) await this.spawnAndLoad();
    const result = this.expectResult(await this.call({ type: 'restore', snapshot }, this.stepTimeoutMs));
    this.lastGood = result;
    return result;
  }

  /** Back to the start state (a new worker if the old one was killed). */
  async reset(): Promise<StepResult> {
    if (!this.worker) {
      const loaded = await this.spawnAndLoad();
      this.lastGood = loaded.start;
      return loaded.start;
    }
    const result = this.expectResult(await this.call({ type: 'reset' }, this.stepTimeoutMs));
    this.lastGood = result;
    return result;
  }

  /** Terminate the worker; the proxy can be revived with reset(). */
  dispose(): void {
    this.kill();
  }

  private adopt(other: EngineProxy): void {
    this.worker = other.worker;
    this.nextId = other.nextId;
    other.worker = null;
    this.worker?.listen(
      (data) => this.onMessage(data),
      (error) => this.onCrash(error),
    );
  }

  private async spawnAndLoad(): Promise<{ info: StoryInfo; start: StepResult }> {
    this.kill();
    let worker: WorkerPort;
    try {
      worker = this.factory();
    } catch (error) {
      throw new EngineError('worker_failed', `The engine worker could not start: ${(error as Error).message}`);
    }
    this.worker = worker;
    worker.listen(
      (data) => this.onMessage(data),
      (error) => this.onCrash(error),
    );
    try {
      const response = await this.call({ type: 'load', bytes: this.bytes, options: this.options }, this.loadTimeoutMs);
      if (response.type !== 'loaded') throw new EngineError('worker_failed', `Unexpected reply "${response.type}" to load`);
      return { info: response.info, start: response.start };
    } catch (error) {
      this.kill();
      if (error instanceof HangError) throw new EngineError('worker_failed', `The story did not reach its first input within ${this.loadTimeoutMs} ms.`);
      if (error instanceof WorkerCrash) throw new EngineError('worker_failed', error.message);
      throw error;
    }
  }

  private call(request: Request, timeoutMs: number): Promise<EngineResponse> {
    const worker = this.worker;
    if (!worker) return Promise.reject(new EngineError('worker_failed', 'The engine worker is not running.'));
    const id = this.nextId++;
    return new Promise<EngineResponse>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new HangError(`The interpreter did not answer within ${timeoutMs} ms; its worker was stopped.`));
      }, timeoutMs);
      this.pending.set(id, {
        resolve: (r) => {
          clearTimeout(timer);
          if (r.type === 'error') reject(fromWireError(r.error));
          else resolve(r);
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      });
      worker.postMessage({ ...request, id } as EngineRequest);
    });
  }

  private onMessage(data: unknown): void {
    if (!isEngineResponse(data)) return;
    const entry = this.pending.get(data.id);
    this.pending.delete(data.id);
    entry?.resolve(data);
  }

  private onCrash(error: Error): void {
    const crash = new WorkerCrash(`The engine worker crashed: ${error.message}`);
    for (const entry of this.pending.values()) entry.reject(crash);
    this.pending.clear();
  }

  private expectResult(response: EngineResponse): StepResult {
    if (response.type !== 'result') throw new EngineError('worker_failed', `Unexpected reply "${response.type}"`);
    return response.result;
  }

  private kill(): void {
    this.worker?.terminate();
    this.worker = null;
    const dead = new WorkerCrash('The engine worker was stopped.');
    for (const entry of this.pending.values()) entry.reject(dead);
    this.pending.clear();
  }
}

class HangError extends Error {}
class WorkerCrash extends Error {}
