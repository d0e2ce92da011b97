/**
 * Running a batch of jobs so that none outlives the batch: every job is awaited even after one
 * fails (the others are told to stop via `stopping`), then the first failure is rethrown. A
 * runner that returned while sessions still ran would leave workers and requests behind.
 */

/**
 * Await every promise; once all have settled, rethrow the failure that came first in time (the
 * cause — later ones are usually the others being stopped because of it).
 * @param onFirstFailure called as soon as any job fails (e.g. to abort the others)
 */
export async function settleAll<T>(jobs: readonly Promise<T>[], onFirstFailure?: (error: unknown) => void): Promise<T[]> {
  let first: { error: unknown } | null = null;
  const watched = jobs.map((job) =>
    job.catch((error: unknown) => {
      if (!first) {
        first = { error };
        onFirstFailure?.(error);
      }
      throw error;
    }),
  );
  const results = await Promise.allSettled(watched);
  if (first) throw (first as { error: unknown }).error;
  return results.map((r) => (r as PromiseFulfilledResult<T>).value);
}

/** An AbortSignal that aborts when `parent` does or when `abort()` is called. */
export function childAbort(parent: AbortSignal | undefined): { signal: AbortSignal; abort: () => void } {
  const controller = new AbortController();
  if (parent?.aborted) controller.abort();
  else parent?.addEventListener('abort', () => controller.abort(), { once: true });
  return { signal: controller.signal, abort: () => controller.abort() };
}
