/**
 * Minibatch sampling over the training tasks, shuffled per epoch (GEPA's epoch-shuffled batch
 * sampler; method.md 2b): each epoch is a fresh shuffle of the task ids, consumed b at a time;
 * a short tail is completed from the next epoch's shuffle. Deterministic for the run's RNG.
 */
import type { SeededRng } from '../../ttl/rng.ts';

export class EpochMinibatchSampler {
  private queue: string[] = [];

  constructor(
    private readonly taskIds: readonly string[],
    private readonly size: number,
  ) {
    if (taskIds.length === 0) throw new RangeError('minibatch sampling needs at least one training task');
  }

  /** The next b task ids (distinct when b ≤ number of tasks). */
  next(rng: SeededRng): string[] {
    const b = Math.min(this.size, this.taskIds.length);
    if (this.queue.length < b) {
      const fresh = rng.shuffle(this.taskIds);
      const queued = new Set(this.queue);
      // Tasks still queued from the last epoch go to the back, so one minibatch never repeats a task.
      this.queue.push(...fresh.filter((t) => !queued.has(t)), ...fresh.filter((t) => queued.has(t)));
    }
    return this.queue.splice(0, b);
  }
}
