/**
 * `EngineProxy`: the asynchronous face of an engine that runs in its own Worker / worker_thread,
 * with a watchdog. ifvms compiles Z-code loops into JavaScript loops, so only terminating the
 * thread stops a runaway story: a step that does not answer within `stepTimeoutMs` ends with the
 * `interpreter_hang` fault and the worker is killed; `reset()` or `restore()` then starts a new
 * worker. DOM-free: the worker itself comes from an injected `WorkerFactory`.
 */
import { MetattlError } from '../common/errors.ts';
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
  private readonly pending = new Map<number, { resolve: (r: EngineResponse) => void; reject: (e: Error) => void; partial: (r: EngineResponse) => void }>();
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
        return this.faultResult(command, error);
      }
      throw error;
    }
  }

  /** The result of a step that hung or crashed the worker: the last good score, done. */
  private faultResult(command: string, error: HangError | WorkerCrash): StepResult {
    return {
      ...this.lastGood, command, text: '', inputKind: null, done: true, endReason: null,
      fault: { kind: error instanceof HangError ? 'interpreter_hang' : 'interpreter_error', message: error.message },
    };
  }

  /**
   * Play `commands` in order in one request (`batch`, protocol.ts): the worker posts each step's
   * result as it goes, so there is no round trip per step, and the watchdog is re-armed on each
   * result, so every step keeps its own `stepTimeoutMs` budget. Stops after the first result that
   * is `done` or has a `fault`. The results equal those of `step()` called once per command,
   * faults included: a hang or worker crash at step k kills the worker and ends the list with the
   * same fault result `step()` gives (it is the last element; `reset()` or `restore()` revives).
   * @param onStep called with each result (and its index in `commands`) as it arrives
   * @returns one result per command played (fewer than `commands` when one was done); `[]` for
   *   an empty list
   * @throws EngineError('game_over') when the worker was stopped by an earlier fault; the typed
   *   error the engine threw at a step (the steps before it reached `onStep`; the worker lives
   *   on); whatever `onStep` throws, and EngineError('worker_failed') for a reply out of order
   *   (the worker is then stopped: its engine may have run ahead of the caller)
   */
  async stepBatch(commands: readonly string[], onStep?: (result: StepResult, index: number) => void): Promise<StepResult[]> {
    if (!this.worker) throw new EngineError('game_over', 'The engine stopped after a fault: reset() or restore() first.');
    const results: StepResult[] = [];
    let takeFailed = false;
    const take = (response: EngineResponse): void => {
      try {
        if (response.type !== 'batch-result' || response.index !== results.length) throw new EngineError('worker_failed', `Unexpected reply "${response.type}" in a batch`);
        results.push(response.result);
        if (!response.result.fault) this.lastGood = response.result;
        onStep?.(response.result, response.index);
      } catch (error) {
        takeFailed = true;
        throw error;
      }
    };
    if (commands.length === 0) return results;
    try {
      take(await this.call({ type: 'batch', commands: [...commands] }, this.stepTimeoutMs, take));
    } catch (error) {
      if (!(error instanceof HangError || error instanceof WorkerCrash)) {
        if (takeFailed) this.kill();
        throw error;
      }
      this.kill();
      const fault = this.faultResult(commands[results.length]!, error);
      results.push(fault);
      onStep?.(fault, results.length - 1);
    }
    return results;
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

  /**
   * Send `request` and await its final response within `timeoutMs`. `onPartial` receives the
   * responses before the final one (a batch's `batch-result`s without `last`); each re-arms the
   * timer, and one it throws on ends the call with that error.
   */
  private call(request: Request, timeoutMs: number, onPartial?: (r: EngineResponse) => void): Promise<EngineResponse> {
    const worker = this.worker;
    if (!worker) return Promise.reject(new EngineError('worker_failed', 'The engine worker is not running.'));
    const id = this.nextId++;
    return new Promise<EngineResponse>((resolve, reject) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const arm = (): void => {
        clearTimeout(timer);
        timer = setTimeout(() => {
          this.pending.delete(id);
          reject(new HangError(`The interpreter did not answer within ${timeoutMs} ms; its worker was stopped.`));
        }, timeoutMs);
      };
      arm();
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
        partial: (r) => {
          try {
            onPartial?.(r);
            arm();
          } catch (error) {
            clearTimeout(timer);
            this.pending.delete(id);
            reject(error as Error);
          }
        },
      });
      worker.postMessage({ ...request, id } as EngineRequest);
    });
  }

  private onMessage(data: unknown): void {
    if (!isEngineResponse(data)) return;
    const entry = this.pending.get(data.id);
    if (data.type === 'batch-result' && !data.last) return entry?.partial(data);
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

/** The worker did not answer in time (internal: the proxy restarts it and reports an EngineError). */
class HangError extends MetattlError {
  constructor(message: string) {
    super('engine_hang', message);
  }
}
/** The worker died or was stopped (internal: reported as an EngineError). */
class WorkerCrash extends MetattlError {
  constructor(message: string) {
    super('engine_worker_crash', message);
  }
}
