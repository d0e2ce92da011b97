/**
 * The modules that build zod schemas when evaluated — import/export of trajectories, share links
 * and meta-prompt entries, then sessions, then evolution runs: the costliest modules of the page to
 * evaluate — loaded in stages, each evaluated in a main-thread task of its own so that none is a
 * long task (> 50 ms; bench/page-bench.ts). The Play view needs none of them: every other view's
 * state loads them first (compose.ts), so they are not part of the first load.
 */
import { yieldToMain } from './main-thread.ts';

const STAGES: ReadonlyArray<() => Promise<unknown>> = [
  () => Promise.all([import('../../agents/trajectory-io.ts'), import('../../share/share-link.ts'), import('../shared/state/entry-io.ts')]),
  () => import('../../ttl/session-io.ts'),
  () => import('../../evolve/evolution-io.ts'),
];

let loading: Promise<void> | undefined;

/** Loads the stages once (later calls share the first); a failed load is retried on the next call. */
export function loadSchemaStages(): Promise<void> {
  loading ??= (async () => {
    for (const stage of STAGES) {
      await stage();
      await yieldToMain();
    }
  })().catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}
