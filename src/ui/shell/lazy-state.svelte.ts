/**
 * A view's state built on first use, with the code only it needs: the page's first load carries
 * the Play view alone (bench/page-bench.ts measures it), and a view's state (its core: sessions,
 * evolution, evaluation, the local model…) arrives with its chunk when the view is first shown.
 */
import { yieldToMain } from './main-thread.ts';

export class LazyState<T> {
  /** The state once built (reactive: the nav's run badges read it), undefined before. */
  current = $state.raw<T | undefined>(undefined);
  private loading: Promise<T> | undefined;

  /** `build` imports the state's modules and constructs it; it runs once, on the first `get`. */
  constructor(private readonly build: () => Promise<T>) {}

  /** The state, built on the first call and shown a task later (`build` yields between evaluating
   * its modules and constructing, so that neither is a long task). A failed build (e.g. the chunk
   * did not load) is retried on the next call. */
  get(): Promise<T> {
    this.loading ??= this.build().then(
      async (state) => {
        await yieldToMain();
        this.current = state;
        return state;
      },
      (error: unknown) => {
        this.loading = undefined;
        throw error;
      },
    );
    return this.loading;
  }
}
