/**
 * Yielding the page's main thread, so that long work runs as several tasks of ≤ 50 ms (no long
 * task: bench/page-bench.ts measures it) and input and rendering get in between.
 */

interface Scheduler { yield?: () => Promise<void> }

/**
 * Resolves in a new task: `scheduler.yield()` where the browser has it (the continuation runs
 * before other queued tasks of the same priority), else a `setTimeout(0)` (Node, older browsers).
 */
export function yieldToMain(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: Scheduler }).scheduler;
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}
