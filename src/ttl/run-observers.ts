/**
 * How a persisted run is observed, one rule for every run kind (as `persistingSink` is for a
 * session, session-store.ts): after every event the core saves the run's state — awaited, so no
 * event is shown before it is stored — and then hands each display observer a copy of the event
 * and the state taken after the save. Display observers (a view's driver, the CLI's progress
 * lines) are not awaited, cannot steer or stop the run (a throw or rejection is dropped), and
 * never see the loop's live, mutable state. Modelled on GEPA's callbacks (core/callbacks.py).
 */

/** A display of a run's progress: `snapshot` is a copy, shared by the observers of one event. */
export type RunObserver<E, S> = (event: E, snapshot: Readonly<S>) => void;

/**
 * The loop's one `onEvent`: `save(state)` after every event, then every observer with a copy.
 * @param save writes the run's state (its header); a rejection fails the run (a full disk stops
 *   it as the store says)
 */
export function observedRun<E, S>(save: (state: S) => Promise<void>, observers: readonly RunObserver<E, S>[] = []): (event: E, state: S) => Promise<void> {
  return async (event, state) => {
    await save(state);
    if (observers.length === 0) return;
    // One clone of both keeps an event that holds the state (`finished`) pointing at the copy.
    const copy = structuredClone({ event, state });
    for (const observe of observers) {
      try {
        const result: unknown = observe(copy.event, copy.state);
        if (result instanceof Promise) result.catch(() => undefined);
      } catch {
        // A display's failure is the display's: the run and its saves go on.
      }
    }
  };
}
