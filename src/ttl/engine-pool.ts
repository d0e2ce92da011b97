/**
 * A pool of engines per task (story + seed), so parallel sessions each get their own engine and
 * finished sessions hand theirs back instead of starting a new worker. Every episode starts with
 * `reset()`, so a reused engine behaves exactly like a fresh one.
 */
import type { EpisodeEngine } from './episode-runner.ts';

export interface PooledEngine extends EpisodeEngine {
  dispose(): void;
}

export class EnginePool {
  private readonly idle = new Map<string, PooledEngine[]>();

  /** @param create starts an engine for a task key (e.g. a worker with the story loaded) */
  constructor(private readonly create: (taskKey: string) => Promise<PooledEngine>) {}

  async acquire(taskKey: string): Promise<PooledEngine> {
    return this.idle.get(taskKey)?.pop() ?? this.create(taskKey);
  }

  release(taskKey: string, engine: PooledEngine): void {
    this.idle.set(taskKey, [...(this.idle.get(taskKey) ?? []), engine]);
  }

  /** Run `body` with an engine of `taskKey`, returning it to the pool afterwards (disposed on error). */
  async with<T>(taskKey: string, body: (engine: PooledEngine) => Promise<T>): Promise<T> {
    const engine = await this.acquire(taskKey);
    try {
      const result = await body(engine);
      this.release(taskKey, engine);
      return result;
    } catch (error) {
      engine.dispose();
      throw error;
    }
  }

  disposeAll(): void {
    for (const engines of this.idle.values()) for (const e of engines) e.dispose();
    this.idle.clear();
  }
}
