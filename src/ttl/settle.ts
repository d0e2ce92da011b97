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

/**
 * A signal per job of a batch: all abort together (on `abortAll()` or when `parent` aborts), but
 * each job listens on its own signal, so a wide batch never piles listeners onto one signal.
 * Call `dispose()` when the batch is over (it stops listening to `parent`).
 */
export function abortGroup(parent: AbortSignal | undefined): { signal(): AbortSignal; abortAll(): void; readonly aborted: boolean; dispose(): void } {
  const controllers: AbortController[] = [];
  let aborted = parent?.aborted ?? false;
  const abortAll = (): void => {
    aborted = true;
    for (const c of controllers) c.abort();
  };
  parent?.addEventListener('abort', abortAll, { once: true });
  return {
    signal() {
      const controller = new AbortController();
      if (aborted) controller.abort();
      controllers.push(controller);
      return controller.signal;
    },
    abortAll,
    get aborted() {
      return aborted;
    },
    dispose: () => parent?.removeEventListener('abort', abortAll),
  };
}
