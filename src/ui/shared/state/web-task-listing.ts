/**
 * Every web task instance for the pickers, loaded on demand: the catalog (sites' data generators,
 * task templates) is imported dynamically when a picker first opens, so it is not in the page's
 * first chunk, and listed once per page with the loops' seeded random source (the same ids and
 * intents as `metattl tasks --kind web`).
 */
import type { WebTaskListing } from '../../../web/interface.ts';

let loading: Promise<readonly WebTaskListing[]> | null = null;

/** The listing (one load per page; later calls share it). A failed load may be tried again. */
export function loadWebTaskListing(): Promise<readonly WebTaskListing[]> {
  loading ??= Promise.all([import('../../../web/tasks/catalog.ts'), import('../../../ttl/web-engine.ts')])
    .then(([catalog, { webRng }]) => catalog.listWebTasks(webRng))
    .catch((error: unknown) => {
      loading = null;
      throw error;
    });
  return loading;
}
